import { expect, it } from 'vitest';
import { parseSegment } from '../../api/segmentation/index.js';
import { validateFormula } from '../../api/services/smart-segments/impact-score.js';
import { CATEGORIES } from './content.js';

it('every seeded preset is fully understood by the engine and every formula is valid', () => {
  for (const c of CATEGORIES) {
    expect(() => validateFormula(c.formula.formula)).not.toThrow();
    for (const p of c.presets) {
      const r = parseSegment(p.description, { now: '2026-06-15T12:00:00Z', timeZone: 'UTC' });
      expect(r.unrecognized, p.description).toEqual([]);
      expect(r.segment.where, p.description).toBeDefined();
    }
  }
});
