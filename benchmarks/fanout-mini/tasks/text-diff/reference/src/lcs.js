// Longest common subsequence of two arrays of lines.

// @step lcs-table {"effort": 8, "todo": "lcsTable(a, b): suffix LCS lengths"}
export function lcsTable(a, b) {
  const t = Array.from({ length: a.length + 1 }, () => new Array(b.length + 1).fill(0));
  for (let i = a.length - 1; i >= 0; i--) {
    for (let j = b.length - 1; j >= 0; j--) {
      t[i][j] = a[i] === b[j] ? t[i + 1][j + 1] + 1 : Math.max(t[i + 1][j], t[i][j + 1]);
    }
  }
  return t;
}
// @end

// @step lcs-pairs {"effort": 8, "after": ["lcs-table"], "todo": "lcsPairs(a, b): matched index pairs from (0, 0)"}
export function lcsPairs(a, b) {
  const t = lcsTable(a, b);
  const pairs = [];
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) {
    if (a[i] === b[j]) {
      pairs.push([i, j]);
      i++;
      j++;
    } else if (t[i + 1][j] >= t[i][j + 1]) i++;
    else j++;
  }
  return pairs;
}
// @end
