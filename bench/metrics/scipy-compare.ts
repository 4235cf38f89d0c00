import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';

const PYTHON = '/usr/bin/python3';

// Timed inside Python (perf_counter) so interpreter start-up is not counted against scipy.
const SCRIPT = String.raw`
import json, sys, time
import numpy as np
from scipy import stats
data = json.load(sys.stdin)
x = np.asarray(data["x"], dtype=float)
y = np.asarray(data["y"], dtype=float)
n_perm = data["permutations"]
rx = stats.rankdata(x)
rxc = rx - rx.mean()
def rho_vectorized(yy, axis=-1):
    ry = stats.rankdata(yy, axis=axis)
    ryc = ry - ry.mean(axis=axis, keepdims=True)
    return (ryc * rxc).sum(axis=axis) / np.sqrt((rxc ** 2).sum() * (ryc ** 2).sum(axis=axis))
out = {"scipy": __import__("scipy").__version__}
t = time.perf_counter()
res = stats.permutation_test((y,), rho_vectorized, permutation_type="pairings", vectorized=True,
                             n_resamples=n_perm, alternative="two-sided", random_state=1)
out["spearmanVectorizedMs"] = (time.perf_counter() - t) * 1000
out["rho"] = float(res.statistic)
out["pVectorized"] = float(res.pvalue)
t = time.perf_counter()
res = stats.permutation_test((y,), lambda yy: stats.spearmanr(x, yy).correlation, permutation_type="pairings",
                             vectorized=False, n_resamples=n_perm, alternative="two-sided", random_state=1)
out["spearmanPerPermutationMs"] = (time.perf_counter() - t) * 1000
out["mcnemar"] = []
for b, c in data["mcnemar"]:
    reps = data["mcnemarRepeats"]
    t = time.perf_counter()
    for _ in range(reps):
        p = stats.binomtest(min(b, c), b + c, 0.5).pvalue
    out["mcnemar"].append({"b": b, "c": c, "p": float(p), "msPerCall": (time.perf_counter() - t) * 1000 / reps})
print(json.dumps(out))
`;

export interface ScipyTimings {
  scipy: string;
  spearmanVectorizedMs: number;
  spearmanPerPermutationMs: number;
  rho: number;
  pVectorized: number;
  mcnemar: Array<{ b: number; c: number; p: number; msPerCall: number }>;
}

/** Runs the scipy side; null (with the reason) when Python or scipy is missing. */
export function runScipy(input: {
  x: number[];
  y: number[];
  permutations: number;
  mcnemar: Array<[number, number]>;
  mcnemarRepeats: number;
}): { timings: ScipyTimings } | { skipped: string } {
  if (!existsSync(PYTHON)) return { skipped: `${PYTHON} not found` };
  const result = spawnSync(PYTHON, ['-c', SCRIPT], { input: JSON.stringify(input), encoding: 'utf8', maxBuffer: 16 * 1024 * 1024 });
  if (result.status !== 0) {
    const reason = /No module named '?(\w+)/.exec(result.stderr)?.[0] ?? result.stderr.trim().split('\n').pop() ?? 'unknown error';
    return { skipped: `${reason} (install with: apt-get install -y python3-scipy)` };
  }
  return { timings: JSON.parse(result.stdout) as ScipyTimings };
}
