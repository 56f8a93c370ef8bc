'use strict';
// LSP's SymbolKind counts from 1 (File = 1); vscode.SymbolKind from 0.
function symbolKindIndex(lspKind) {
  return Number.isInteger(lspKind) && lspKind >= 1 ? lspKind - 1 : 0;
}
module.exports = { symbolKindIndex };
