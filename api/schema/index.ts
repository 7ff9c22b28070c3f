// Imports every schema file, then builds the schema.
import { builder } from '../builder.js';
import './auth.js';
import './user.js';
import './usage.js';
import './crm.js';
// (one import per schema file)

export const schema = builder.toSchema({ sortSchema: true });
