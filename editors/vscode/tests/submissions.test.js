'use strict';
// Submit…, Submissions… and Market Details…, against the real server: what
// is asked and sent, the rows' summaries, and the market's file on disk.

const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('fs');
const { fileURLToPath } = require('url');
const { keyAt } = require('./tree');
const { waitFor } = require('./helpers');
const { activate, newFile, sent, story, DRAFT, STORY, STORY_SECTION } = require('./activate');
const manifest = require('../package.json');
const { evaluate } = require('./when');
const { CONTEXT } = require('../lib/present');
const { localDay } = require('../lib/submissions');

const MAGAZINES = [...STORY, 'PUBLICATIONS', 'Magazines'];
const GRANTA = [...MAGAZINES, 'Granta'];
const REVIEW = [...MAGAZINES, 'Review'];
const OPENING = [...DRAFT, 'Opening.md'];
const STORM = [...DRAFT, 'Storm.md'];

const commandsSent = (ext, command) => sent(ext)
  .filter((message) => message.method === 'workspace/executeCommand' && message.params.command === command)
  .map((message) => message.params.arguments[0]);
const requestsSent = (ext, method) => sent(ext).filter((message) => message.method === method).map((message) => message.params);
const reported = (ext, message) => waitFor(`the report “${message}”`, () => ext.record.infos.some((info) => info.message === message));
const uriOf = async (ext, labels) => ext.api.binder.node(await keyAt(ext.provider, labels)).uri;
const summaryOf = async (ext, labels) => (await ext.provider.getTreeItem(await keyAt(ext.provider, labels))).description;

// A short story with Opening.md and Storm.md in Draft, and, unless told
// otherwise, the markets Granta and Review in Magazines.
async function storyWithMarkets(t, { markets = ['Granta', 'Review'] } = {}) {
  const ext = await activate(t, { withStory: true });
  await newFile(ext, DRAFT, 'Opening');
  await newFile(ext, DRAFT, 'Storm');
  for (const market of markets) {
    ext.answers.input.push(market);
    await ext.run('carrel.newFolder', await keyAt(ext.provider, MAGAZINES));
  }
  return ext;
}

// Submit… on `rows` (the first is the one clicked) to the market whose
// label ends with `market`, sent on `date`.
async function submit(ext, rows, market, date = '2026-11-20') {
  const keys = [];
  for (const labels of rows) keys.push(await keyAt(ext.provider, labels));
  ext.answers.pick.push(({ items }) => items.find((item) => item.label.endsWith(` › ${market}`)));
  ext.answers.input.push(date);
  return ext.run('carrel.submit', keys[0], keys);
}

test('Submit… offers the project’s markets, asks the date sent (today by default) and records it', async (t) => {
  const ext = await storyWithMarkets(t);
  ext.answers.pick.push(({ items, placeHolder }) => {
    assert.equal(placeHolder, 'Submit “Opening.md” to: ');
    assert.deepEqual(items.map((item) => item.label), ['Writing › My Story › Magazines › Granta', 'Writing › My Story › Magazines › Review']);
    return items[0];
  });
  ext.answers.input.push(({ prompt, value }) => {
    assert.equal(prompt, 'Date sent (YYYY-MM-DD): ');
    assert.equal(value, localDay());
    return '2026-11-20';
  });
  const opening = await keyAt(ext.provider, OPENING);
  await ext.run('carrel.submit', opening, [opening]);
  assert.deepEqual(requestsSent(ext, 'carrel/destinations').at(-1), { uri: await uriOf(ext, OPENING), purpose: 'submit' });
  assert.deepEqual(commandsSent(ext, 'carrel.submit'),
    [{ items: [await uriOf(ext, OPENING)], marketUri: await uriOf(ext, GRANTA), date: '2026-11-20' }]);
  await reported(ext, 'Submitted “Opening.md” to “Granta” on 2026-11-20.');
  await waitFor('the row to say it is out', async () => /out at 1/.test(await summaryOf(ext, OPENING)));
  assert.ok(fs.readdirSync(story(ext.box, '.carrel', 'submissions')).some((name) => name.endsWith('.json')));
  assert.deepEqual(ext.record.errors, []);
});

test('Submit… on several selected files submits them all; Escape at either question sends nothing', async (t) => {
  const ext = await storyWithMarkets(t);
  ext.answers.pick.push(({ placeHolder, items }) => {
    assert.equal(placeHolder, 'Submit 2 pieces to: ');
    return items[1];
  });
  ext.answers.input.push('2026-11-21');
  const keys = [await keyAt(ext.provider, OPENING), await keyAt(ext.provider, STORM)];
  await ext.run('carrel.submit', keys[1], keys);
  await reported(ext, 'Submitted “Opening.md”, “Storm.md” to “Review” on 2026-11-21.');
  ext.answers.pick.push(undefined);
  await ext.run('carrel.submit', keys[0], keys);
  ext.answers.pick.push(({ items }) => items[0]);
  ext.answers.input.push(undefined);
  await ext.run('carrel.submit', keys[0], keys);
  assert.deepEqual(commandsSent(ext, 'carrel.submit'), [{
    items: [await uriOf(ext, OPENING), await uriOf(ext, STORM)], marketUri: await uriOf(ext, REVIEW), date: '2026-11-21',
  }]);
  assert.deepEqual(ext.record.errors, []);
});

test('Submit… in a project without a market says where to make one', async (t) => {
  const ext = await storyWithMarkets(t, { markets: [] });
  const opening = await keyAt(ext.provider, OPENING);
  await ext.run('carrel.submit', opening, [opening]);
  assert.ok(ext.record.infos.some((info) => info.message
    === '“My Story” has no market yet: make a folder in Magazines, Competitions, Commissions or Other.'), JSON.stringify(ext.record.infos));
  assert.deepEqual(commandsSent(ext, 'carrel.submit'), []);
});

test('Submissions… lists each piece, sets a status from the server’s list, and withdraws an accepted piece elsewhere', async (t) => {
  const ext = await storyWithMarkets(t);
  await ext.run('carrel.submissions', await keyAt(ext.provider, OPENING));
  assert.ok(ext.record.infos.some((info) => info.message === 'No submissions yet.'));
  await submit(ext, [OPENING], 'Granta', '2026-11-20');
  await submit(ext, [OPENING, STORM], 'Review', '2026-11-21');
  await waitFor('Opening to be out at 2', async () => /out at 2/.test(await summaryOf(ext, OPENING)));

  ext.answers.pick.push(({ items, title }) => {
    assert.equal(title, 'Submissions');
    assert.deepEqual(items.map((item) => item.label).sort(), [
      'pending · Granta · 2026-11-20 · Opening.md',
      'pending · Review · 2026-11-21 · Opening.md',
      'pending · Review · 2026-11-21 · Storm.md',
    ]);
    return items.find((item) => item.label === 'pending · Granta · 2026-11-20 · Opening.md');
  });
  ext.answers.pick.push(({ items, placeHolder }) => {
    assert.equal(placeHolder, '“Opening.md” at “Granta”: ');
    assert.deepEqual(items.map((item) => item.label),
      ['pending (now)', 'shortlisted', 'accepted', 'rejected', 'withdrawn', 'no response'], 'no withdrawal before it is accepted');
    return items.find((item) => item.label === 'accepted');
  });
  await ext.run('carrel.submissions', await keyAt(ext.provider, OPENING));
  const [accepted] = commandsSent(ext, 'carrel.setSubmissionStatus');
  assert.equal(accepted.piece, '1');
  assert.equal(accepted.status, 'accepted');
  await waitFor('the row to say so', async () => !/out at 2/.test(await summaryOf(ext, OPENING)));
  assert.match(await summaryOf(ext, OPENING), /accepted/);
  await waitFor('the server’s report', () => ext.record.infos.some((info) => info.message.startsWith('“Opening.md” at “Granta”: accepted.')));

  ext.answers.pick.push(({ items }) => items.find((item) => item.label === 'accepted · Granta · 2026-11-20 · Opening.md'));
  ext.answers.pick.push(({ items }) => {
    assert.deepEqual(items.map((item) => item.label),
      ['pending', 'shortlisted', 'accepted (now)', 'rejected', 'withdrawn', 'no response', 'Withdraw it everywhere else']);
    return items.at(-1);
  });
  await ext.run('carrel.submissions', await keyAt(ext.provider, OPENING));
  assert.deepEqual(commandsSent(ext, 'carrel.withdrawOthers'), [{ record: accepted.record, piece: '1' }]);
  await waitFor('Opening to be out nowhere', async () => !/out at/.test(await summaryOf(ext, OPENING)));
  const { submissions } = await ext.api.server.request('carrel/submissions', { uri: await uriOf(ext, REVIEW) });
  assert.deepEqual(submissions[0].pieces.map((piece) => [piece.path, piece.status]),
    [['Draft/Opening.md', 'withdrawn'], ['Draft/Storm.md', 'pending']]);
  assert.deepEqual(ext.record.errors, []);
});

test('accepted: the server’s offer of Published is asked through the client, and Move to Published moves the piece', async (t) => {
  const ext = await storyWithMarkets(t);
  await submit(ext, [OPENING], 'Granta', '2026-11-20');
  await waitFor('Opening to be out', async () => /out at 1/.test(await summaryOf(ext, OPENING)));
  const opening = fileURLToPath(await uriOf(ext, OPENING));
  const published = opening.replace(/\/Draft\/Opening\.md$/, '/Published/Opening.md');
  ext.answers.pick.push(({ items }) => items.find((item) => item.label === 'pending · Granta · 2026-11-20 · Opening.md'));
  ext.answers.pick.push(({ items }) => items.find((item) => item.label === 'accepted'));
  ext.answers.message.push(({ items }) => {
    assert.deepEqual(items.map((item) => item.title), ['Not Now', 'Move to Published'], 'the server’s actions, in its order');
    return items[1];
  });
  await ext.run('carrel.submissions', await keyAt(ext.provider, OPENING));
  await waitFor('Opening.md in Published', () => fs.existsSync(published));
  assert.ok(ext.record.asked.some((asked) => asked.kind === 'message'
    && asked.message === '“Opening.md” was accepted at “Granta”. Move it to Published?'), 'the server asked');
  assert.ok(!fs.existsSync(opening));
  await waitFor('the record to follow', async () => {
    const { submissions } = await ext.api.server.request('carrel/submissions', { uri: await uriOf(ext, GRANTA) });
    return submissions[0].pieces[0].path === 'Published/Opening.md';
  });
  assert.deepEqual(ext.record.errors, []);
});

test('Submissions… asks for a market’s, the project’s from its Submissions folder or itself, and every project’s from a library', async (t) => {
  const ext = await storyWithMarkets(t);
  await submit(ext, [OPENING], 'Granta');
  const project = await uriOf(ext, STORY);
  const rows = [[GRANTA, { uri: await uriOf(ext, GRANTA) }], [[...STORY_SECTION, 'Submissions'], { uri: project }],
    [STORY, { uri: project }], [['Writing'], {}]];
  for (const [labels, params] of rows) {
    const before = requestsSent(ext, 'carrel/submissions').length;
    ext.answers.pick.push(({ items }) => {
      assert.deepEqual(items.map((item) => item.label), ['pending · Granta · 2026-11-20 · Opening.md'], labels.join(' › '));
      return undefined;
    });
    await ext.run('carrel.submissions', await keyAt(ext.provider, labels));
    assert.deepEqual(requestsSent(ext, 'carrel/submissions').slice(before), [params], labels.join(' › '));
  }
  assert.deepEqual(commandsSent(ext, 'carrel.setSubmissionStatus'), []);
  assert.deepEqual(ext.record.errors, []);
});

test('Market Details… asks each field in turn, prefilled, and sends what changed; emptied clears; Escape sends nothing', async (t) => {
  const ext = await storyWithMarkets(t);
  const granta = await keyAt(ext.provider, GRANTA);
  ext.answers.input.push('2026-12-31', '', '$3', 'https://granta.com', 'no', 'Poems only');
  await ext.run('carrel.marketDetails', granta);
  assert.deepEqual(ext.record.asked.slice(-6).map((asked) => [asked.prompt, asked.value || '']), [
    ['Deadline (YYYY-MM-DD, empty for none): ', ''], ['Reading period: ', ''], ['Fee: ', ''], ['URL: ', ''],
    ['Simultaneous submissions (yes/no): ', ''], ['Notes: ', ''],
  ]);
  await reported(ext, 'Saved the details of “Granta”.');
  const values = () => {
    const saved = JSON.parse(fs.readFileSync(story(ext.box, 'Magazines', 'Granta', '.carrel-market'), 'utf8'));
    return Object.fromEntries(Object.entries(saved.fields).map(([field, setting]) => [field, setting.value]));
  };
  assert.deepEqual(values(), { deadline: '2026-12-31', fee: '$3', url: 'https://granta.com', simultaneous: false, notes: 'Poems only' });
  assert.deepEqual(commandsSent(ext, 'carrel.setMarket')[0], {
    uri: ext.api.binder.node(granta).uri,
    fields: { deadline: '2026-12-31', fee: '$3', url: 'https://granta.com', simultaneous: false, notes: 'Poems only' },
  });
  // Asked again, each question holds the market's value: the fee emptied
  // clears it, the yes/no changed goes, the rest left as they were do not.
  ext.answers.input.push('2026-12-31', '', '', 'https://granta.com', 'yes', 'Poems only');
  await ext.run('carrel.marketDetails', granta);
  assert.deepEqual(ext.record.asked.slice(-6).map((asked) => asked.value || ''),
    ['2026-12-31', '', '$3', 'https://granta.com', 'no', 'Poems only']);
  assert.deepEqual(commandsSent(ext, 'carrel.setMarket')[1].fields, { fee: null, simultaneous: true });
  assert.deepEqual(values(), { deadline: '2026-12-31', fee: null, url: 'https://granta.com', simultaneous: true, notes: 'Poems only' });
  ext.answers.input.push('2027-01-31', 'March', undefined);
  await ext.run('carrel.marketDetails', granta);
  assert.equal(commandsSent(ext, 'carrel.setMarket').length, 2, 'Escape at any question sends nothing');
  await ext.run('carrel.marketDetails', await keyAt(ext.provider, OPENING));
  assert.ok(ext.record.infos.some((info) => info.message
    === 'Market details are kept on a folder in Magazines, Competitions, Commissions or Other.'));
  assert.equal(commandsSent(ext, 'carrel.setMarket').length, 2);
  assert.deepEqual(ext.record.errors, []);
});

test('a market that takes no simultaneous submissions: the server’s question is asked, and Cancel records nothing', async (t) => {
  const ext = await storyWithMarkets(t);
  ext.answers.input.push('', '', '', '', 'no', '');
  await ext.run('carrel.marketDetails', await keyAt(ext.provider, GRANTA));
  await submit(ext, [OPENING], 'Review');
  ext.answers.message.push(({ items }) => {
    assert.equal(items[0].title, 'Cancel', 'the server’s actions, in its order');
    return items[0];
  });
  await submit(ext, [OPENING], 'Granta');
  assert.ok(ext.record.asked.some((asked) => asked.kind === 'message' && /Granta/.test(asked.message)), 'the server asked');
  const { submissions } = await ext.api.server.request('carrel/submissions', { uri: await uriOf(ext, GRANTA) });
  assert.deepEqual(submissions, []);
  assert.deepEqual(ext.record.errors, []);
});

test('markets and the Submissions folder are rows of their own, with their actions on their menus', async (t) => {
  const ext = await storyWithMarkets(t);
  assert.equal((await ext.provider.getTreeItem(await keyAt(ext.provider, GRANTA))).contextValue, CONTEXT.market);
  assert.equal((await ext.provider.getTreeItem(await keyAt(ext.provider, [...STORY_SECTION, 'Submissions']))).contextValue,
    CONTEXT.submissionsFolder);
  assert.equal((await ext.provider.getTreeItem(await keyAt(ext.provider, MAGAZINES))).contextValue, CONTEXT.permanentFolder);
  const offered = (viewItem, command) => manifest.contributes.menus['view/item/context']
    .some((entry) => entry.command === command && evaluate(entry.when, { view: 'carrel.binder', viewItem }));
  const files = [CONTEXT.file, CONTEXT.listedFile, CONTEXT.fileLeftOut, CONTEXT.listedFileLeftOut];
  for (const viewItem of files) assert.ok(offered(viewItem, 'carrel.submit') && offered(viewItem, 'carrel.submissions'), viewItem);
  for (const viewItem of [CONTEXT.market, CONTEXT.marketLeftOut]) {
    assert.ok(offered(viewItem, 'carrel.marketDetails') && offered(viewItem, 'carrel.submissions'), viewItem);
    // A market is a folder of the writer's own, with everything one offers.
    for (const entry of manifest.contributes.menus['view/item/context']) {
      if (offered(viewItem.replace('market', 'user'), entry.command)) assert.ok(offered(viewItem, entry.command), `${viewItem}: ${entry.command}`);
    }
  }
  for (const viewItem of [CONTEXT.submissionsFolder, CONTEXT.submissionsFolderLeftOut, CONTEXT.project, CONTEXT.projectNotAsking]) {
    assert.ok(offered(viewItem, 'carrel.submissions'), viewItem);
  }
  for (const viewItem of [CONTEXT.submissionsFolder, CONTEXT.submissionsFolderLeftOut]) {
    for (const entry of manifest.contributes.menus['view/item/context']) {
      if (offered(viewItem.replace('submissions', 'permanent'), entry.command)) assert.ok(offered(viewItem, entry.command), `${viewItem}: ${entry.command}`);
    }
  }
  for (const viewItem of [CONTEXT.userFolder, CONTEXT.permanentFolder, CONTEXT.project, CONTEXT.trashItem]) {
    assert.ok(!offered(viewItem, 'carrel.submit') && !offered(viewItem, 'carrel.marketDetails'), viewItem);
  }
  const title = (command) => manifest.contributes.commands.find((c) => c.command === command).title;
  assert.deepEqual(['carrel.submit', 'carrel.submissions', 'carrel.marketDetails'].map(title),
    ['Submit…', 'Submissions…', 'Market Details…']);
});
