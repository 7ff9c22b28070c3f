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

/** Words that open small talk: a greeting, thanks, an apology, a wish, a laugh ("hi there!", "thanks so much!"). */
const SOCIAL_OPENERS = new Set([
  'hi', 'hii', 'hiii', 'hiya', 'hey', 'heya', 'hello', 'howdy', 'yo', 'morning', 'evening', 'afternoon', 'good', 'greetings', 'dear',
  'thanks', 'thank', 'thx', 'ty', 'tks', 'cheers', 'regards', 'best', 'gracias', 'obrigada', 'obrigado', 'merci', 'danke', 'grazie', 'ta',
  'sorry', 'apologies', 'hope', 'hoping', 'lol', 'haha', 'hehe', 'ps', 'xx', 'xo',
]);

/**
 * Subjects of a sentence about the user or the assistant rather than the contacts ("we're doing a survey", "my boss
 * wants …", "you're a star"); not "they", "he" or "she", who may be the contacts ("(they opened the last email)").
 */
const PERSONAL_SUBJECTS = new Set([
  'i', "i'm", 'im', "i've", "i'll", "i'd", 'we', "we're", "we've", "we'll", "we'd", 'you', "you're", "you've", "you'll", 'u',
]);
/** "my boss", "our colleague anouk": someone on the user's side (not "our loyalty members", who may be contacts). */
const POSSESSIVES = new Set(['my', 'our', 'your']);
const COLLEAGUES = new Set(['boss', 'colleague', 'colleagues', 'team', 'manager', 'cfo', 'ceo', 'cmo', 'cro', 'coo', 'vp', 'director', 'head', 'founder', 'intern', 'assistant', 'rep', 'reps', 'analyst', 'agency']);

/** Words before a sentence's opener that change nothing ("so sorry …", "oh and thanks …"). */
const LEADING_WORDS = new Set(['so', 'oh', 'ah', 'and', 'also', 'again', 'really', 'very', 'super', 'um', 'uh', 'ok', 'okay', 'anyway', 'anyways', 'btw', 'p', 's']);

/**
 * Words that restrict, ask for or describe contacts: a sentence holding one may be a condition the parser does not know
 * ("only paid ads", "we want people who came to the open day", "I need the ones with a phone number").
 */
const RESTRICTING = new Set([
  'only', 'just', 'exclusively', 'solely', 'must', 'should', 'needs', 'need', 'want', 'wants', 'pull', 'find', 'get', 'show', 'list',
  'send', 'target', 'looking', 'interested', 'include', 'including', 'see', 'give', 'who', 'whom', 'whose', 'which', 'that', 'with',
  'people', 'contacts', 'customers', 'anyone', 'everyone', 'those', 'ones', 'them',
]);

/**
 * Whether a sentence (or a remark in parentheses) that holds no condition is small talk around the request: it opens
 * with a greeting, thanks, an apology, a wish or a laugh ("hope your week is going well", "thanks a bunch, Marie"), or
 * it is about people — its subject a personal pronoun or someone's ("we're doing a small-basket survey", "our colleague
 * anouk will follow up personally") — and it neither excludes, negates nor restricts ("don't include test accounts",
 * "only paid ads" stay not understood, so the question asks).
 */
export function isSmallTalk(text: string): boolean {
  const words = text.toLowerCase().replace(/’/g, "'").split(/[^\p{L}']+/u).filter(Boolean);
  if (words.length === 0) return false;
  if (words.some((w) => NEVER_FRAME.has(w) || RESTRICTING.has(w) || /n't$/.test(w))) return false;
  // ("so sorry for the last-minute ask", "oh and thanks")
  const at = words.findIndex((w) => !LEADING_WORDS.has(w));
  const first = words[at] ?? '';
  return SOCIAL_OPENERS.has(first) || PERSONAL_SUBJECTS.has(first) || (POSSESSIVES.has(first) && COLLEAGUES.has(words[at + 1] ?? ''));
}
