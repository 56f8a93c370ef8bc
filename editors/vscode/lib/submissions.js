'use strict';
// Submissions without 'vscode': which rows are markets, the rows of the
// Submissions picker and of a piece's status picker, and Market Details'
// questions and the fields their answers make. The server owns every
// status's title and every report.

const path = require('path');

// A market is a folder directly in one of these permanent folders.
const MARKET_HOLDERS = new Set(['magazines', 'competitions', 'commissions', 'other']);
const WITHDRAW_ENTRY = 'Withdraw it everywhere else';
const NOT_A_MARKET = 'Market details are kept on a folder in Magazines, Competitions, Commissions or Other.';
const NO_SUBMISSIONS = 'No submissions yet.';

function isMarket(node, parent) {
  return Boolean(node && parent && node.kind === 'folder' && !node.permanent && !node.inTrash
    && parent.kind === 'folder' && parent.permanent && MARKET_HOLDERS.has(parent.role));
}

function noMarketMessage(projectTitle) {
  return `“${projectTitle}” has no market yet: make a folder in Magazines, Competitions, Commissions or Other.`;
}

function submitPlaceholder(names) {
  return names.length === 1 ? `Submit “${names[0]}” to: ` : `Submit ${names.length} pieces to: `;
}

// Today in the writer's own time zone, as the date prompt offers it.
function localDay(now = new Date()) {
  const two = (n) => String(n).padStart(2, '0');
  return `${now.getFullYear()}-${two(now.getMonth() + 1)}-${two(now.getDate())}`;
}

function pieceName(piece) {
  return path.posix.basename(String(piece.path || ''));
}

// One row per piece of each submission, in the server's order:
// `STATUS · MARKET · SENT · PIECE`.
function submissionRows(submissions) {
  return (submissions || []).flatMap((submission) => (submission.pieces || []).map((piece) => ({
    label: [piece.title, submission.market && submission.market.name, submission.sent, pieceName(piece)].join(' · '),
    submission,
    piece,
  })));
}

function statusPlaceholder({ submission, piece }) {
  return `“${pieceName(piece)}” at “${submission.market && submission.market.name}”: `;
}

// Every status the server declares, by its title, the piece's own marked;
// an accepted piece may also be withdrawn everywhere else.
function statusChoices(statuses, piece) {
  const choices = (statuses || []).map((status) => ({
    label: status.id === piece.status ? `${status.title} (now)` : status.title,
    status: status.id,
  }));
  if (piece.status === 'accepted') choices.push({ label: WITHDRAW_ENTRY, withdraw: true });
  return choices;
}

// Market Details…, in the order asked. `simultaneous` takes yes or no.
const MARKET_QUESTIONS = Object.freeze([
  { field: 'deadline', prompt: 'Deadline (YYYY-MM-DD, empty for none): ' },
  { field: 'readingPeriod', prompt: 'Reading period: ' },
  { field: 'fee', prompt: 'Fee: ' },
  { field: 'url', prompt: 'URL: ' },
  { field: 'simultaneous', prompt: 'Simultaneous submissions (yes/no): ' },
  { field: 'notes', prompt: 'Notes: ' },
]);

const YES = new Set(['yes', 'y']);
const NO = new Set(['no', 'n']);

// The answer to the yes/no question as the wire's boolean; undefined for
// an empty answer, null for anything else.
function yesNo(answer) {
  const word = answer.trim().toLowerCase();
  if (word === '') return undefined;
  if (YES.has(word)) return true;
  if (NO.has(word)) return false;
  return null;
}

function yesNoProblem(answer) {
  return yesNo(answer) === null ? 'Answer yes or no.' : undefined;
}

// The fields to send: an answer left as `offered` (the market's value, the
// question's prefill) is not sent, so a field another machine changed
// meanwhile keeps that change; an offered value emptied is sent as null,
// which clears it; an empty answer to an empty question sends nothing.
function marketFields(answers, offered = {}) {
  const fields = {};
  for (const { field } of MARKET_QUESTIONS) {
    const answer = answers[field];
    if (answer === undefined) continue;
    const given = answer.trim();
    const prefill = offered[field] === undefined ? '' : offered[field];
    if (given === prefill) continue;
    if (given === '') {
      fields[field] = null;
      continue;
    }
    fields[field] = field === 'simultaneous' ? yesNo(given) : given;
  }
  return fields;
}

// A market's details (`carrel/market`) as the text each question starts
// with: yes or no for `simultaneous`, '' for a field not set.
function marketPrefills(details) {
  const prefills = {};
  for (const { field } of MARKET_QUESTIONS) {
    const value = details ? details[field] : undefined;
    if (typeof value === 'boolean') prefills[field] = value ? 'yes' : 'no';
    else prefills[field] = typeof value === 'string' ? value : '';
  }
  return prefills;
}

module.exports = {
  isMarket, noMarketMessage, submitPlaceholder, localDay, submissionRows, statusPlaceholder, statusChoices,
  marketFields, marketPrefills, yesNoProblem, MARKET_QUESTIONS, WITHDRAW_ENTRY, NOT_A_MARKET, NO_SUBMISSIONS,
};
