'use strict';
// Just enough of VS Code's `when` clause language for package.json's menus:
// `||` of `&&` of `key == value`, `key != value`, `key` and `!key`.

function terms(clause) {
  return clause.split('||').map((conjunction) => conjunction.split('&&').map((term) => term.trim()));
}

function evaluate(clause, context) {
  if (!clause) return true;
  return terms(clause).some((conjunction) => conjunction.every((term) => {
    let match = /^([\w.]+)\s*(==|!=)\s*([\w.-]+)$/.exec(term);
    if (match) {
      const [, key, op, value] = match;
      return op === '==' ? String(context[key]) === value : String(context[key]) !== value;
    }
    match = /^(!?)([\w.]+)$/.exec(term);
    if (match) return match[1] ? !context[match[2]] : !!context[match[2]];
    throw new Error(`unsupported when term: ${term}`);
  }));
}

// Every value a clause compares `key` with.
function valuesOf(clause, key) {
  const values = [];
  for (const conjunction of terms(clause || '')) {
    for (const term of conjunction) {
      const match = /^([\w.]+)\s*(?:==|!=|=~)\s*(.+)$/.exec(term);
      if (match && match[1] === key) values.push(match[2].trim());
    }
  }
  return values;
}

module.exports = { evaluate, valuesOf };
