// The question box with suggestions while typing (issue 25): the word being typed is completed from the
// question's fields and stages and the user's own CRM values (client/completion.ts). The box keeps the focus
// and points at the suggestion list (aria-autocomplete="list", aria-controls, aria-activedescendant; the list
// is a listbox of options): ↓/↑ choose a suggestion, Enter or Tab accept it (Tab the first one when none is
// chosen, unless the word typed already is a whole term: then Tab moves on), Escape closes the list. Without a chosen suggestion Enter sends the question as before.
import { Portal, Textarea, makeStyles, mergeClasses, tokens, useMergedRefs, usePositioning, type TextareaProps } from '@fluentui/react-components';
import { forwardRef, useEffect, useLayoutEffect, useMemo, useRef, useState, type KeyboardEvent } from 'react';
import { acceptCompletion, completeAt, endsWithTerm, type Suggestion, type Term, type TermKind } from '../../../client/completion.js';

const LIST_ID = 'question-suggestions';
const optionId = (i: number) => `question-suggestion-${i}`;

const KIND_LABEL: Record<TermKind, string> = {
  stage: 'Stage',
  region: 'Region',
  field: 'Field',
  country: 'Country',
  state: 'State',
  city: 'City',
  company: 'Company',
};

const useStyles = makeStyles({
  list: {
    zIndex: 10,
    minWidth: '220px',
    maxHeight: '260px',
    overflowY: 'auto',
    padding: tokens.spacingVerticalXS,
    backgroundColor: tokens.colorNeutralBackground1,
    borderRadius: tokens.borderRadiusMedium,
    boxShadow: tokens.shadow16,
    border: `${tokens.strokeWidthThin} solid ${tokens.colorTransparentStroke}`,
  },
  option: {
    display: 'flex',
    justifyContent: 'space-between',
    gap: tokens.spacingHorizontalL,
    padding: `${tokens.spacingVerticalSNudge} ${tokens.spacingHorizontalS}`,
    borderRadius: tokens.borderRadiusMedium,
    color: tokens.colorNeutralForeground1,
    fontSize: tokens.fontSizeBase300,
    lineHeight: tokens.lineHeightBase300,
    cursor: 'pointer',
    ':hover': { backgroundColor: tokens.colorNeutralBackground1Hover },
  },
  active: {
    backgroundColor: tokens.colorNeutralBackground1Selected,
    outline: `${tokens.strokeWidthThick} solid ${tokens.colorStrokeFocus2}`,
    outlineOffset: `-${tokens.strokeWidthThick}`,
  },
  kind: { color: tokens.colorNeutralForeground2, fontSize: tokens.fontSizeBase200 },
  hidden: { position: 'absolute', width: '1px', height: '1px', overflow: 'hidden', clip: 'rect(0 0 0 0)', whiteSpace: 'nowrap' },
});

type Props = Omit<TextareaProps, 'value' | 'onChange' | 'onKeyDown'> & {
  value: string;
  onValueChange: (value: string) => void;
  /** Enter without a chosen suggestion (and without Shift) */
  onSubmit: () => void;
  terms: readonly Term[];
};

export const QuestionInput = forwardRef<HTMLTextAreaElement, Props>(function QuestionInput({ value, onValueChange, onSubmit, terms, ...textarea }, ref) {
  const s = useStyles();
  const own = useRef<HTMLTextAreaElement>(null);
  const [caret, setCaret] = useState(0);
  const [focused, setFocused] = useState(false);
  // Escape closes the list until the text or the caret moves
  const [closedAt, setClosedAt] = useState<string | null>(null);
  const [active, setActive] = useState(-1);
  const nextCaret = useRef<number | null>(null);
  const enabled = focused && !textarea.readOnly && !textarea.disabled;
  const suggestions = useMemo(() => (enabled ? completeAt(value, caret, terms) : []), [enabled, value, caret, terms]);
  const shown = suggestions.length > 0 && closedAt !== `${caret}:${value}`;
  const { targetRef, containerRef } = usePositioning({ position: 'below', align: 'start', fallbackPositions: ['above'], offset: 4, matchTargetSize: 'width' });
  const refs = useMergedRefs(ref, own, targetRef);

  // a new list starts with nothing chosen
  useEffect(() => setActive(-1), [suggestions]);
  // after accepting, the caret goes after the inserted value
  useLayoutEffect(() => {
    if (nextCaret.current === null || !own.current) return;
    own.current.setSelectionRange(nextCaret.current, nextCaret.current);
    setCaret(nextCaret.current);
    nextCaret.current = null;
  }, [value]);

  const readCaret = () => setCaret(own.current?.selectionEnd ?? value.length);

  function accept(sug: Suggestion) {
    const next = acceptCompletion(value, sug);
    nextCaret.current = next.caret;
    onValueChange(next.text);
  }

  function onKeyDown(e: KeyboardEvent<HTMLTextAreaElement>) {
    if (shown) {
      const n = suggestions.length;
      if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
        e.preventDefault();
        setActive((a) => (e.key === 'ArrowDown' ? (a + 1) % n : a <= 0 ? n - 1 : a - 1));
        return;
      }
      if (e.key === 'Escape') {
        e.preventDefault();
        e.stopPropagation();
        setClosedAt(`${caret}:${value}`);
        return;
      }
      // Tab takes the first suggestion unless the word already is a whole term ("leads"): then it moves on
      const tabTakes = e.key === 'Tab' && !e.shiftKey && (active >= 0 || !endsWithTerm(value, caret, terms));
      if ((e.key === 'Enter' && !e.shiftKey && active >= 0) || tabTakes) {
        e.preventDefault();
        accept(suggestions[Math.max(active, 0)]);
        return;
      }
    }
    if (e.key === 'Enter' && !e.shiftKey) {
      e.preventDefault();
      onSubmit();
    }
  }

  return (
    <>
      <Textarea
        {...textarea}
        ref={refs}
        value={value}
        onChange={(e, d) => {
          onValueChange(d.value);
          setCaret(e.target.selectionEnd ?? d.value.length);
        }}
        onKeyDown={onKeyDown}
        onSelect={readCaret}
        onFocus={() => {
          setFocused(true);
          readCaret();
        }}
        onBlur={() => setFocused(false)}
        aria-autocomplete="list"
        aria-haspopup="listbox"
        aria-controls={shown ? LIST_ID : undefined}
        aria-activedescendant={shown && active >= 0 ? optionId(active) : undefined}
      />
      <span className={s.hidden} aria-live="polite">
        {shown ? `${suggestions.length} suggestion${suggestions.length === 1 ? '' : 's'}: arrow keys to choose, Enter or Tab to accept, Escape to close.` : ''}
      </span>
      {shown && (
        <Portal>
          <div ref={containerRef} id={LIST_ID} role="listbox" aria-label="Suggestions" className={s.list}>
            {suggestions.map((sug, i) => (
              <div
                key={`${sug.kind}:${sug.label}`}
                id={optionId(i)}
                role="option"
                aria-selected={i === active}
                className={mergeClasses(s.option, i === active && s.active)}
                // the box keeps the focus: a click accepts without blurring it
                onMouseDown={(e) => e.preventDefault()}
                onClick={() => accept(sug)}
              >
                <span>{sug.label}</span>
                <span className={s.kind}>{KIND_LABEL[sug.kind]}</span>
              </div>
            ))}
          </div>
        </Portal>
      )}
    </>
  );
});
