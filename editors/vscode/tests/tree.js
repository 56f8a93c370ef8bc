'use strict';
// Reads the tree the way VS Code would: through the registered provider.

async function itemOf(provider, key) {
  return provider.getTreeItem(key);
}

// Every row, expanded all the way, as [{ key, depth, item }].
async function allRows(provider, parent = undefined, depth = 0, rows = []) {
  for (const key of await provider.getChildren(parent)) {
    const item = await itemOf(provider, key);
    rows.push({ key, depth, item });
    if (item.collapsibleState) await allRows(provider, key, depth + 1, rows);
  }
  return rows;
}

// "label  description  (contextValue)" lines, indented: handy in failures.
async function outline(provider) {
  return (await allRows(provider)).map(({ depth, item }) =>
    `${'  '.repeat(depth)}${item.label}${item.description ? `  ${item.description}` : ''}  (${item.contextValue})`).join('\n');
}

// The key of the row reached by following labels from the top.
async function keyAt(provider, labels) {
  let parent;
  for (const label of labels) {
    const children = await provider.getChildren(parent);
    let found;
    for (const key of children) if ((await itemOf(provider, key)).label === label) found = key;
    if (found === undefined) {
      throw new Error(`no row “${label}” under ${parent || 'the top'}; the tree is:\n${await outline(provider)}`);
    }
    parent = found;
  }
  return parent;
}

async function childLabels(provider, key) {
  const labels = [];
  for (const child of await provider.getChildren(key)) labels.push((await itemOf(provider, child)).label);
  return labels;
}

module.exports = { allRows, outline, keyAt, childLabels };
