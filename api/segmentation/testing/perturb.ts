/**
 * Mechanical variations of a question (issue 23, the perturbation check): the same question typed
 * differently must give the same segment or an honest clarification, never a different confident one.
 * Kinds: case (all lower, all upper, sentence case), a typo in a long word (two inner letters swapped),
 * accents stripped or added (place names the data holds with accents), punctuation (a trailing "?" or ".",
 * doubled spaces), and word order (a place phrase right after the subject moved to the end).
 */
import { CITIES } from '../regions.js';

export interface Variant {
  kind: 'lower' | 'upper' | 'sentence' | 'typo' | 'accents-stripped' | 'accents-added' | 'punctuation' | 'spaces' | 'order';
  text: string;
}

/** Accents removed, except inside quotes: a quoted value is the exact value the user wants ("last_name = 'García'"). */
const strip = (s: string) => s.split(/('[^']*'|"[^"]*")/).map((part, i) => (i % 2 === 1 ? part : part.normalize('NFD').replace(/\p{M}/gu, ''))).join('');

/** Accented place names by their unaccented spelling ("malmo" -> "malmö"). */
const ACCENTED = new Map<string, string>();
for (const c of [...CITIES, 'Malmö', 'Málaga', 'Kraków', 'Gdańsk', 'Zürich', 'Québec', 'Montréal', 'Querétaro', 'Poznań', 'Wrocław', 'Córdoba', 'Niterói', 'Valparaíso']) {
  if (strip(c) !== c) ACCENTED.set(strip(c).toLowerCase(), c.toLowerCase());
}

/**
 * A typo in the longest word of 7 letters or more: its two middle letters swapped ("califronia"). Never inside an
 * e-mail address or a domain: a typo there names another address, so another segment is the right answer.
 */
function typo(text: string): string | undefined {
  const inAddress = (index: number) => /[@.][\p{L}\d-]*$/u.test(text.slice(0, index)) || /^[\p{L}\d-]*[@.][\p{L}\d]/u.test(text.slice(index));
  const words = [...text.matchAll(/\p{L}{7,}/gu)].filter((m) => !inAddress(m.index ?? 0));
  if (words.length === 0) return undefined;
  const w = words.reduce((a, b) => (b[0].length > a[0].length ? b : a));
  const word = w[0];
  const i = Math.floor(word.length / 2) - 1;
  if (word[i] === word[i + 1]) return undefined;
  const swapped = word.slice(0, i) + word[i + 1] + word[i] + word.slice(i + 2);
  return text.slice(0, w.index) + swapped + text.slice((w.index ?? 0) + word.length);
}

function addAccents(text: string): string | undefined {
  let out = text;
  for (const [plain, accented] of ACCENTED) {
    const re = new RegExp(`\\b${plain.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\b`, 'gi');
    out = out.replace(re, (m) => (m[0] === m[0].toUpperCase() ? accented[0].toUpperCase() + accented.slice(1) : accented));
  }
  return out === text ? undefined : out;
}

/**
 * "leads in canada who bought last week" -> "leads who bought last week in canada": a place phrase right
 * after the subject moves to the end (only when the rest has no "or", so the conditions stay independent).
 */
function reorder(text: string): string | undefined {
  const m = /^(\S+(?:\s\S+)?)\s(in|from)\s([\p{L} .'-]+?)\s(who|with|w\/|that|whose)\s(.+)$/iu.exec(text);
  if (!m || /\bor\b/i.test(text) || /\bor\b|,|\bbut\b|\bexcept\b|\bnot\b/i.test(m[5]) || /\b(last|past|this|the last)\b/i.test(m[3])) return undefined;
  return `${m[1]} ${m[4]} ${m[5].replace(/[.?!]$/, '')} ${m[2]} ${m[3]}`;
}

export function variantsOf(question: string): Variant[] {
  const out: Variant[] = [];
  const add = (kind: Variant['kind'], text: string | undefined) => {
    if (text && text !== question && !out.some((v) => v.text === text)) out.push({ kind, text });
  };
  add('lower', question.toLowerCase());
  add('upper', question.toUpperCase());
  add('sentence', question.charAt(0).toUpperCase() + question.slice(1));
  add('typo', typo(question));
  add('accents-stripped', strip(question));
  add('accents-added', addAccents(question));
  add('punctuation', /[?.!]$/.test(question) ? question.slice(0, -1) : `${question}?`);
  add('spaces', question.replace(/ /g, '  '));
  add('order', reorder(question));
  return out;
}
