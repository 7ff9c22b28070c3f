/**
 * The request around a question carries no condition: "hey can u pull up …", "any chance you could find …",
 * "i'd love to see which …", "target only those in …". Words of it that the grammar does not know would make
 * the parser ask about them, so the words before the question's first condition (the request frame) are read
 * with compromise's English tagger, and those that only frame the request — pronouns, determiners, modals and
 * auxiliaries, interjections, particles ("pull up"), and the request's own verb (present tense, said by
 * the user or to the assistant) — are dropped. Nouns, adjectives and numbers stay unknown ("decision makers in
 * fintech", "healthcare accts"), and so do verbs in the past tense ("opened the newsletter"), prepositions
 * ("near") and adverbs other than a few that only colour a sentence ("frequently" is a condition we lack): they
 * may be what the user asks for. The tagger runs only when the frame holds a word the grammar did not know.
 */
import nlp from 'compromise';

/** Tags of words that only frame a request. */
const FRAME_TAGS = ['Pronoun', 'Determiner', 'Expression', 'Modal', 'Auxiliary', 'Copula', 'QuestionWord', 'Conjunction', 'Particle'];

/** Nouns of the request itself ("any chance …", "a quick list of …", "do me a favour"). */
const FRAME_NOUNS = new Set(['chance', 'favor', 'favour', 'help', 'way', 'idea', 'quick', 'question', 'q', 'pls', 'thx', 'ty', 'kindly']);

/**
 * Words that are never only a frame, whatever their tag: they exclude, count or negate ("skip anyone in
 * Texas", "leave out leads", "none of the customers …", "half of", "won't").
 */
const NEVER_FRAME = new Set([
  'remove', 'removing', 'drop', 'skip', 'omit', 'ignore', 'avoid', 'hide', 'filter', 'exclude', 'leave', 'suppress', 'subtract', 'minus',
  'lose', 'churn', 'cancel', 'unsubscribe', 'bounce', 'block', 'ban', 'delete', 'stop', 'quit', 'cease', 'except', 'unless', 'without',
  'none', 'nobody', 'noone', 'nothing', 'neither', 'nor', 'no', 'never', 'other', 'another', 'half', 'few', 'several', 'each', 'every',
  "won't", 'wont', "can't", 'cant', 'cannot', "shouldn't", "wouldn't", "couldn't", 'not', "n't",
]);

/** "'s" that is "is" or "us", not a possessive. */
const CONTRACTIONS = new Set(["who's", "it's", "that's", "let's", "what's", "there's", "here's", "he's", "she's"]);

/** Words that say the frame is a request. */
const REQUEST_CUES = new Set([
  'i', "i'd", 'id', "i'm", 'im', 'we', "we'd", "we're", 'you', 'u', 'ya', 'me', 'us', 'can', 'could', 'would', 'will', 'please', 'pls',
  'plz', 'hey', 'hi', 'hello', 'yo', 'who', "who's", 'whos', 'which', 'what', 'show', 'find', 'get', 'give', 'pull', 'list', 'need',
  'want', "let's", 'lets', 'wanna', 'gimme', 'target', 'fetch', 'grab',
]);

/** Verbs of asking for a list ("can u pull up", "i'd love to see", "target only those", "who's got"). */
const REQUEST_VERBS = new Set([
  'pull', 'find', 'get', 'got', 'gotten', 'give', 'show', 'list', 'see', 'love', 'like', 'want', 'wanted', 'need', 'needed', 'target',
  'grab', 'fetch', 'bring', 'dig', 'look', 'run', 'send', 'build', 'create', 'make', 'compile', 'generate', 'share', 'tell', 'know',
  'check', 'spot', 'locate', 'display', 'provide', 'prepare', 'produce', 'pick', 'select', 'choose', 'identify', 'retrieve', 'return',
  'help', 'assemble', 'put', 'gather', 'collect', 'pls', 'please', 'wonder', 'wondering', 'curious', 'ask', 'asking', 'was', 'were',
  // ("kindly revert with the list of …": reply, in Indian English)
  'revert', 'pulling', 'getting', 'finding', 'grabbing', 'sending', 'sharing', 'exporting',
]);

/**
 * Adverbs that only colour a sentence ("aren't actually in the UK", "basically everyone in …"); not those of
 * habit or manner ("usually buy in December", "ideally in Texas", "quickly"), which may be what is asked.
 */
export const DISCOURSE_ADVERBS = new Set([
  'actually', 'basically', 'literally', 'really', 'truly', 'definitely', 'certainly', 'possibly', 'probably', 'maybe', 'perhaps',
  'kindly', 'simply', 'honestly', 'seriously', 'obviously', 'essentially', 'presumably', 'hopefully', 'somehow', 'anyway',
  'anyways', 'apparently', 'personally', 'already', 'tho', 'though',
]);

export interface FrameToken {
  /** index of the lexer token */
  at: number;
  start: number;
  end: number;
  /** right before the question's first condition, which it may qualify ("repeat buyers") */
  adjacent?: boolean;
}

/**
 * The positions (lexer token indexes) of the unknown words in the request frame `source.slice(0, end)` that
 * only frame the request. `unknown` are the unknown tokens inside the frame.
 */
export function requestFrameWords(source: string, end: number, unknown: FrameToken[]): Set<number> {
  const out = new Set<number>();
  if (unknown.length === 0) return out;
  // only a frame that asks ("can you …", "hey …", "I'd love …", "who's …", "find …") frames a request
  const words = source.slice(0, end).toLowerCase().split(/[^\p{L}']+/u).filter(Boolean);
  if (!words.some((w) => REQUEST_CUES.has(w))) return out;
  const frame = source.slice(0, end);
  const terms = (nlp(frame).json({ offset: true }) as Array<{ terms: Array<{ text: string; tags: string[]; offset: { start: number; length: number } }> }>).flatMap((s) => s.terms);
  const tagsAt = (start: number) => terms.find((t) => t.offset.start <= start && start < t.offset.start + Math.max(1, t.offset.length))?.tags;
  for (const u of unknown) {
    const word = source.slice(u.start, u.end).toLowerCase();
    const tags = tagsAt(u.start) ?? [];
    const has = (t: string) => tags.includes(t);
    // (a possessive names something: "may's buyers", "acme's contacts")
    if (NEVER_FRAME.has(word) || (/'s$/.test(word) && !CONTRACTIONS.has(word))) continue;
    // ("who do we know at orbitpeak": a word before a preposition does not qualify the place or company after it)
    const beforePreposition = /^\s*(at|in|from|on|with)\b/i.test(source.slice(u.end, u.end + 8));
    if (u.adjacent && !beforePreposition && !['Particle', 'Pronoun', 'Determiner', 'Expression', 'Modal', 'Auxiliary', 'QuestionWord'].some(has)) continue;
    if (FRAME_NOUNS.has(word) || DISCOURSE_ADVERBS.has(word)) out.add(u.at);
    else if (has('Noun') && !has('Pronoun')) continue; // a noun may be what the user asks for
    else if (has('Adjective') || has('Value')) continue;
    else if (FRAME_TAGS.some(has)) out.add(u.at);
    // the request's own verb ("pull", "love to see", "target"), a verb of asking for something: another verb may
    // be what is asked ("who renews in q3")
    else if (has('Verb') && REQUEST_VERBS.has(word)) out.add(u.at);
  }
  return out;
}
