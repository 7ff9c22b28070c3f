// Imports every schema file, then builds the schema.
import { builder } from '../builder.js';
import './auth.js';
import './users.js';
import './usage.js';
import './billing.js';
import './crm.js';
import './contact-imports.js';
import './segment.js';
import './queries.js';
import './smart-segments.js';
import './customer-export.js';
import './segments.js';
import './pricing-tiers.js';
import './maintenance.js';
import './audit.js';
// (one import per schema file)

export const schema = builder.toSchema({ sortSchema: true });
