"""Oracle for tst_lifsnn: the band estimate of lif-mmwave computed with numpy and
scipy.signal.welch from an [N, T, C] .npy and its labels (NaN frames held as the engine does).
argv: x.npy y.npy train_rows nperseg quantile out.npy
out.npy: rows [freq; fisher; energy; ratio (C rows); psd of sequence 0 (C rows)], then
one more row whose first value is omega_d."""
import sys

import numpy as np
from scipy.signal import welch

x = np.load(sys.argv[1]).astype(np.float64)
if x.ndim == 2:
    x = x[:, :, None]
y = np.load(sys.argv[2]).astype(np.float64)
rows, nperseg, q = int(sys.argv[3]), int(sys.argv[4]), float(sys.argv[5])
for i in range(x.shape[0]):  # zero-order hold of frames holding a NaN
    for t in range(x.shape[1]):
        if np.isnan(x[i, t]).any():
            x[i, t] = x[i, t - 1] if t > 0 else 0.0
labels = np.unique(y)
cls = np.searchsorted(labels, y)
f, p = welch(x[:rows], fs=1.0, window="hann", nperseg=nperseg, noverlap=nperseg // 2,
             detrend="constant", scaling="density", return_onesided=True, axis=1)
# p: rows x F x C -> rows x C x F
p = np.transpose(p, (0, 2, 1))
c = cls[:rows]
m = p.mean(axis=0)
between = np.zeros_like(m)
within = np.zeros_like(m)
for k in np.unique(c):
    pk = p[c == k]
    mk = pk.mean(axis=0)
    between += len(pk) * (mk - m) ** 2
    within += ((pk - mk) ** 2).sum(axis=0)
with np.errstate(invalid="ignore", divide="ignore"):
    ratio = np.where((within == 0) & (between == 0), 0.0, between / within)
fisher = ratio.mean(axis=0)
energy = (ratio * m).mean(axis=0)
j = int(np.argmax(np.cumsum(energy) >= q * energy.sum()))
out = np.vstack([f, fisher, energy, ratio, p[0], np.full(len(f), 2 * np.pi * f[j])])
np.save(sys.argv[6], out)
