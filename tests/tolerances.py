"""The tolerances of the test suite, named by what they are for.

A test compares numbers with a name from here, not with a literal, so a reader sees at a
glance *why* two computations may differ and by how much.  float64 has ε ≈ 2.2e-16; every
size below is stated against it, or against the solver that produced the number.

Rules for adding or changing one:

- pick the name by purpose (what lies between the two computations), not by its value; two
  names may share a value when their reasons differ;
- never loosen a tolerance to make a test pass: a tolerance that stops holding is a finding;
- a new purpose gets a new name here, with its reason and its size justified.

``linteach.testing.GRAD_RTOL`` (finite differences of the loss) lives in the library, because
the library's own ``gradient_check`` uses it.
"""

# ------------------------------------------------------------ float64 rounding, no solver
# The same real number computed two ways in float64: no iteration, no solver, a short and
# well-conditioned chain of operations.  Any difference is rounding.

#: a few ulps (1e-15 ≈ 4.5 ε): a stable formula at an argument where the exact answer is
#: representable up to a term far below one ulp (log ℓ(1e4) = −1e4 up to e^{−1e4})
ULPS = 1e-15

#: a stable formula against an exact reference (``log log1p(e^{−q})`` beside the switch of
#: branches, a high-precision value): a few dozen ulps (1e-14 ≈ 45 ε)
REFERENCE = 1e-14

#: one computation against another layout of the same arithmetic (batched against looped):
#: only the grouping of a few short sums changes, which moves results by a few ulps of the
#: largest term (1e-14 ≈ 45 ε)
REORDERED = 1e-14

#: a value computed through its logarithm and exponentiated (Theorem 4.1's constants where
#: their products leave float64): a log of magnitude ≤ 709 carries ≲ 4 roundings, so the
#: value is off by ≲ 709·4·2^-53 ≈ 3e-13 relative (the bound ``linteach.bounds.ROUND_UP``
#: allows for); 1e-12 leaves a margin
LOG_SPACE = 1e-12

#: a closed form or algebraic identity evaluated two ways (ℓ against ``log1p(e^{−q})``, the
#: log-space loss sum against the mean, Eq. 3 written two ways, a bound's formula by hand):
#: ≲ 100 operations of condition ≲ 10, so ≲ 1e-13; 1e-12 (≈ 4500 ε) leaves a margin.  Also the
#: absolute tolerance for such quantities of order one whose exact value is 0 (a centred
#: column's mean, u + w when u = −w)
IDENTITY = 1e-12

#: the slack of an inequality that holds in exact arithmetic for quantities of order one
#: (``y_i w*·x_i ≥ 1``, ``‖x‖ ≤ 1``, a bound's ``M ≥ T``): rounding may miss it by ~1e-13
EXACT_BOUND_SLACK = 1e-12

#: absolute floors beside a relative tolerance, for entries of O(1) arrays that cancel to
#: ~0 (a relative tolerance alone fails at an exact zero computed as 1e-17): a few ulps of
#: the largest term, for sums of a handful of terms (ULPS_FLOOR), for a gradient entry
#: Σ_i g_i y_i x_i over n ≲ 10 examples (GRADIENT_FLOOR), and for sums of O(10) terms whose
#: order changes or that are taken in log space (SUM_FLOOR: neurons permuted, blocks
#: swapped, a log-sum of losses)
ULPS_FLOOR = 1e-15
GRADIENT_FLOOR = 1e-14
SUM_FLOOR = 1e-13

#: a quantity computed by another route (a gradient by a naive neuron-by-neuron loop of
#: Eq. 3, ∇L/L or the weights g/L_sum formed in log space): each gradient entry is a sum
#: over examples whose terms of both signs cancel, so its relative error is ε times the
#: condition of that cancellation, which a relative 1e-12 would not bound for entries that
#: nearly cancel; 1e-10, with GRADIENT_FLOOR for entries that cancel to ~0
OTHER_ROUTE = 1e-10

#: a positively homogeneous map against its scaled value (N(cW, x) = c N(W, x) for
#: c ∈ [1e-3, 1e3], Euler's identity W·∇N = N): scaling changes the rounding of every
#: pre-activation and the sums then cancel; 1e-11 relative, 1e-12 absolute (per unit of c)
HOMOGENEOUS = 1e-11
HOMOGENEOUS_FLOOR = 1e-12

#: an exact inequality checked at hostile scales (knobs from 1e-300 to 1e300, entries
#: rescaled by their maximum so the check itself cannot overflow): the rescaling and the
#: extreme knobs cost a few digits more than EXACT_BOUND_SLACK
HOSTILE_ROUNDING = 1e-9

#: one SGD step's change of the potentials F and G² against their bounds (Thm 4.1's proof),
#: relative to the size Σ|W0|·Σ|w*| of the terms whose difference is taken
STEP_ROUNDING = 1e-9

#: a maximum found by a numerical search (hill-climbing in float64 on Thm 5.1's ratio, a
#: quotient of cancelling terms) against the closed-form constant it cannot exceed
SEARCH_SLACK = 1e-9

#: a quantity formed through a catastrophic cancellation or a renormalisation: g = −expm1(−ℓ)
#: when ℓ is tiny, weights g/L_sum at a tie, a direction rescaled by 1/‖·‖, a constructed
#: radius or gap met by normalising (1e-9: cancellation of up to ~6 digits of 16)
CANCELLATION = 1e-9

#: the absolute floor for a comparison whose values may underflow to subnormals (weights of
#: e^{−700}, a kernel entry of 1e-310): anything above it is compared relatively
SUBNORMAL_FLOOR = 1e-300

#: the angle between two nearly parallel rows (1e-12 to 1e-6 apart) against a 40-digit
#: reference: a small angle is the norm of a difference of nearly equal unit vectors, so it
#: keeps fewer correct digits than the rows themselves; 1e-6 relative, ULPS_FLOOR absolute
SMALL_ANGLE = 1e-6

#: Thm 4.1's ``T_exact`` (float64) against the root of its quadratic in 50-digit arithmetic,
#: for constants spanning hundreds of orders of magnitude: the root ((b + √(b² + 4ac))/2a)²
#: loses a few digits more than IDENTITY allows
QUADRATIC_ROOT = 1e-11

# ------------------------------------------------------------ convex solvers
# CLARABEL (interior point) with the library's polishing: the answer is re-solved on its
# active set, and accepted only when every residual is below ``linteach.kkt.POLISH_TOL``
# (1e-10); comparisons of a polished answer allow 10x that.

#: a polished solution against a closed form or another program's polished solution
#: (w = w_svm/(1+α) on antipodal data, (P) in PAR = Eq. 8 scaled), and feasibility slacks
#: (q ≥ 1, sign constraints, clustered blocks) of a polished solution
POLISHED = 1e-9

#: a polished solution's entries that are 0 exactly in closed form (u + w on antipodal data):
#: absolute, 10x below POLISHED since both entries come out of one polished solve
POLISHED_ZERO = 1e-10

#: the solver against a second conic solver (OSQP/SCS), or CLARABEL called directly: the
#: second answer is judged at ``linteach.kkt.FEAS_TOL`` (1e-7 relative), so 1e-7 relative,
#: 1e-9 absolute
SECOND_SOLVER = 1e-7
SECOND_SOLVER_FLOOR = 1e-9

#: a solver answer against SciPy's SLSQP run to ``ftol=1e-13`` (an independent iterative
#: oracle, whose solution is accurate to about the square root of ftol), and derived
#: quantities of the optimum (Σλ = ‖θ‖², the teacher's margins, KKT residuals, Assumption 4's
#: LP rescaled by 1e3) judged at the library's ``KKT_TOL`` / ``DIST_TOL`` (1e-6)
ORACLE = 1e-6
#: the absolute floor of ORACLE comparisons (entries of order 0.1–1 that may be 0)
ORACLE_FLOOR = 1e-9

#: a solve of rescaled data (scales 1e-9 to 1e150) against the closed form or the unscaled
#: solve divided by the scale: the library rescales before solving, so ORACLE's accuracy
#: holds after undoing the scale
SCALED_SOLVE = 1e-6

#: a margin within this of 1 counts as an active constraint when a test rebuilds the SVM's
#: multipliers by NNLS (the library's ``linteach.kkt.FEAS_TOL``)
ACTIVE_SET = 1e-7

#: the KKT certificate's multipliers λ, compared under a rescaling of W or between the primal
#: and its kernel dual: a least-squares solve on a possibly ill-conditioned active set, so 10x
#: ORACLE
MULTIPLIERS = 1e-5

#: the KKT certificate's normalised margin γ at a solution of (P) against 1/‖W‖ (min q(W) = 1
#: there): γ is formed from the polished W, whose margins are 1 to POLISHED; 1e-8 relative
KKT_GAMMA = 1e-8

#: a check that the optimum is *not* the candidate: a gap of 1e-3 in ‖W‖² is far above every
#: solver accuracy above, and far below the gaps the test constructs
CLEARLY_WORSE = 1e-3

# ------------------------------------------------------------ numerical derivatives, rates

#: a central finite difference with a step of 1e-4 relative: truncation ~1e-8, and the
#: smoothed margin's own rounding divided by the step ~1e-8; 1e-3 covers the curvature of
#: the late phase
FINITE_DIFFERENCE = 1e-3

#: a power law read off two points a factor 2 apart (log₂ of a ratio of bounds whose lower
#: order terms are ≲ 1 %): 0.01 in the exponent
EXPONENT = 0.01
