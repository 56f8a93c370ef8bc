'use strict';
// The breadcrumb: the path of the selected row, beside the binder's title,
// read as every editor reads it.

const test = require('node:test');
const assert = require('node:assert/strict');
const { keyAt } = require('./tree');
const { waitFor } = require('./helpers');
const { activate, newFile, DRAFT, STORY } = require('./activate');

test('the selected row’s path shows beside the title, without section headers', async (t) => {
  const ext = await activate(t, { withStory: true });
  await newFile(ext, DRAFT, 'Opening');
  assert.equal(ext.view.description || '', '', 'nothing selected, no breadcrumb');
  const opening = await keyAt(ext.provider, [...DRAFT, 'Opening.md']);
  ext.view.select([opening]);
  assert.equal(ext.view.description, 'Writing › My Story › Draft › Opening.md');
  ext.view.select([await keyAt(ext.provider, STORY)]);
  assert.equal(ext.view.description, 'Writing › My Story');
  ext.view.select([opening]);
  ext.answers.input.push('Overture');
  await ext.run('carrel.rename', opening);
  const overture = await keyAt(ext.provider, [...DRAFT, 'Overture.md']);
  ext.view.select([overture]);
  await waitFor('the new name in the breadcrumb', () => ext.view.description === 'Writing › My Story › Draft › Overture.md');
  ext.view.select([]);
  assert.equal(ext.view.description, '');
});
