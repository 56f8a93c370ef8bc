'use strict';
// What the "Carrel" output channel prints for each piece of traffic.
// level: 'off' (nothing), 'messages' (every raw JSON body),
// 'verbose' (bodies, plus the server's stderr and log messages).
function traceLine(level, direction, text) {
  if (level === 'off') return null;
  if ((direction === 'stderr' || direction === 'log') && level !== 'verbose') return null;
  return `[${new Date().toISOString()}] ${direction} ${text}`;
}
module.exports = { traceLine };
