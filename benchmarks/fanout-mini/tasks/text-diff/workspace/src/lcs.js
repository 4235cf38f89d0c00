// Longest common subsequence of two arrays of lines.

// @step lcs-table
// TODO: lcsTable(a, b): suffix LCS lengths
// @end

// @step lcs-pairs
// TODO: lcsPairs(a, b): matched index pairs from (0, 0)
// @end
