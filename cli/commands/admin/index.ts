// crm admin …: the administrator's commands (the server refuses them to other users).
import { defineGroup } from '../../command.js';
import ban from './ban.js';
import cleanup from './cleanup.js';
import clear from './clear.js';
import generate from './generate.js';
import stats from './stats.js';
import tiers from './tiers.js';
import unban from './unban.js';
import users from './users.js';

export default defineGroup({
  name: 'admin',
  summary: 'Administration: users, bans, statistics, Smart Segment generation, cleanup, tiers',
  commands: [users, ban, unban, stats, generate, clear, cleanup, tiers],
  examples: ['crm admin users --banned', 'crm admin ban spam@example.com --reason "Automated scraping"', 'crm admin generate', 'crm admin cleanup --retention 30 --dry-run'],
});
