#!/usr/bin/env bash
# Judge one cosmic-ray mutant (run from the scratch copy of the repository):
#   mutation_judge.sh [--tests-first] CLAIM_ID... -- TEST_FILE...   (ALL: every claim)
# Exit 0 = the mutant survived.  Prints which stage killed it.
# Named claims run one at a time in the order given (cheapest first pays): the first claim
# that does not PASS kills the mutant, so a killed mutant does not pay for the others.
# --tests-first (the population pass): the fast tests first, the claims only for a mutant
# the tests let through; the import check runs after the tests there (a mutant that does not
# import fails them too), and for a failing test run only when pytest reports a collection
# error (otherwise it imported the package to collect them), so a killed mutant does not pay
# for it.  No test file: the claims alone.
tests_first=0; [ "$1" = "--tests-first" ] && { tests_first=1; shift; }
claims=(); while [ "$1" != "--" ] && [ $# -gt 0 ]; do claims+=("$1"); shift; done; shift
py="${MUTATE_PYTHON:-python}"
skip_verify=0; [ "${claims[0]}" = "NONE" ] && skip_verify=1   # a tests-only campaign
imports() {
    if ! "$py" -c "import linteach, linteach.bounds, linteach.convex, proofs_check.engine.runner, proofs_check.kit.audit" > import.log 2>&1
    then
        echo "KILLED-BY: import (the mutant does not import: not a competent mutant)"
        tail -2 import.log; exit 1
    fi
}
verify() {
    [ $skip_verify = 1 ] && return 0
    if [ "${claims[0]}" = "ALL" ]; then groups=("ALL"); else groups=("${claims[@]}"); fi
    for c in "${groups[@]}"; do
        only=(); [ "$c" != "ALL" ] && only=(--only "$c")
        if ! "$py" -m proofs_check --budget quick --workers 0 "${only[@]}" \
                --json mutant_claims.json --out mutant_claims.md > verify.log 2>&1; then
            echo "KILLED-BY: verify ($c)"; tail -3 verify.log; exit 1
        fi
    done
}
tests() {
    [ $# = 0 ] && return 0   # no test file: never the whole suite
    if ! HYPOTHESIS_PROFILE=dev "$py" -m pytest -x -q -m "not slow" -p no:cacheprovider "$@" \
            > tests.log 2>&1; then
        # pytest collected the test files (which import the package) unless it reports a
        # collection error: only then can the mutant be one that does not import
        [ $tests_first = 1 ] && grep -q -E "errors? during collection|ERROR collecting" tests.log \
            && imports
        echo "KILLED-BY: tests"; tail -3 tests.log; exit 1
    fi
}
if [ $tests_first = 1 ]; then tests "$@"; imports; verify; else imports; verify; tests "$@"; fi
echo "SURVIVED"
