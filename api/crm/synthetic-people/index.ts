/** The synthetic people shared by every CRM sandbox (one generator, so every CRM must agree). */
export {
  generatePeople, resolveReferenceNow, mulberry32,
  type SyntheticPerson, type SyntheticPurchase, type GeneratePeopleOptions,
} from './generate.js';
export { COUNTRIES, PERSONAL_EMAIL_DOMAINS, type CountryInfo } from './geo.js';
