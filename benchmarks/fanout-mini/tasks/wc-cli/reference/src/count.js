// Counting functions on Buffers.

// @step count-lines {"effort": 2, "todo": "countLines(buf): newline characters"}
export function countLines(buf) {
  let n = 0;
  for (const byte of buf) if (byte === 0x0a) n++;
  return n;
}
// @end

// @step count-words {"effort": 4, "todo": "countWords(buf): runs of non white space"}
const SPACE = new Set([0x20, 0x09, 0x0a, 0x0d, 0x0b, 0x0c]);

export function countWords(buf) {
  let n = 0;
  let inWord = false;
  for (const byte of buf) {
    if (SPACE.has(byte)) inWord = false;
    else if (!inWord) {
      inWord = true;
      n++;
    }
  }
  return n;
}
// @end

// @step count-chars {"effort": 3, "todo": "countChars(buf): Unicode code points of the decoded text"}
export function countChars(buf) {
  let n = 0;
  for (const _ of buf.toString('utf8')) n++;
  return n;
}
// @end

// @step count-bytes {"effort": 2, "todo": "countBytes(buf)"}
export function countBytes(buf) {
  return buf.length;
}
// @end
