"""The README tour: train a small net with SGD and print how clustered it is."""
import numpy as np
import linteach as lt

rng = np.random.default_rng(0)
data = lt.make_separable(n=200, d=10, margin=0.1, rng=rng)
net = lt.Net(k=50, alpha=0.3, v=1.0)
W0 = net.init(d=10, scale=1e-3, rng=rng)
run = lt.sgd(net, W0, data, eta=0.1, n_epochs=50, rng=rng)
print(f"final mean loss          {run.trace['loss'][-1]:.4f}")
print(f"cluster radius r         {lt.cluster_radius(run.W):.4f}")
print(f"r / |w_bar - u_bar|      {lt.relative_cluster_radius(run.W):.4f}")
print(f"outside linear regime    {lt.fraction_outside_linear_regime(run.W, data.X):.1%}")
