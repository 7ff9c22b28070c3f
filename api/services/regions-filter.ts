// Region names accepted by the results filter ("North America", "asia pacific", "europe", ...) → the
// country values of that region (the segmentation engine's documented lists, incl. spelling variants).
import { REGIONS, regionCountryValues, type Region } from '../segmentation/regions.js';

const key = (s: string) => s.toLowerCase().replace(/[^a-z]/g, '');
const BY_KEY = new Map<string, Region>(REGIONS.map((r) => [key(r), r]));
BY_KEY.set('apac', 'Asia-Pacific');
BY_KEY.set('asia', 'Asia-Pacific');
BY_KEY.set('latam', 'Latin America');
BY_KEY.set('mea', 'Middle East & Africa');

export function countriesOfRegion(name: string): string[] | null {
  const region = BY_KEY.get(key(name));
  return region ? regionCountryValues(region) : null;
}
