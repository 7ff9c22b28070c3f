/**
 * Spanish and Portuguese words that sales teams in Latin America and Iberia mix into English questions ("clientes
 * en méxico", "leads em são paulo com ltv acima de 5 mil"), read as the English word they stand for. Only words with
 * one reading that is not also an English word or a code the parser reads; those ("de", "e", "o", "la", "con",
 * "sin", "hace") are read in context by mixed-in.ts, as are month names (from ICU, Intl.DateTimeFormat), which are
 * also parts of names ("Rio de Janeiro").
 */
import englishWords from 'an-array-of-english-words/index.json' with { type: 'json' };

const fold = (s: string) => s.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();

const WORDS: Record<string, string> = {
  en: 'in', em: 'in', com: 'with', y: 'and', entre: 'between', que: 'who', desde: 'since', nunca: 'never', excepto: 'except', exceto: 'except',
  clientes: 'customers', contactos: 'contacts', contatos: 'contacts', suscriptores: 'subscribers', assinantes: 'subscribers',
  meses: 'months', mes: 'month', mês: 'month', dias: 'days', días: 'days', semanas: 'weeks', años: 'years', anos: 'years',
  año: 'year', ano: 'year', dia: 'day', día: 'day', semana: 'week', trimestre: 'quarter', trimestres: 'quarters',
  compraron: 'bought', compraram: 'bought', compro: 'bought', compró: 'bought', comprou: 'bought', compran: 'buy', compram: 'buy',
  compradores: 'buyers', comprador: 'buyer',
  acima: 'over', mayor: 'over', menor: 'under', abaixo: 'under', mil: 'thousand', pasado: 'last', passado: 'last', pasada: 'last', passada: 'last',
  este: 'this', esta: 'this', ultimos: 'last', últimos: 'last', ultimas: 'last', últimas: 'last', ultimo: 'last', último: 'last',
  oportunidades: 'opportunities', oportunidad: 'opportunity', oportunidade: 'opportunity', prospectos: 'prospects',
  activos: 'active', activas: 'active', activo: 'active', ativos: 'active', ativas: 'active', ativo: 'active',
  inactivos: 'inactive', inactivas: 'inactive', inativos: 'inactive', inativas: 'inactive',
  registraron: 'joined', registrados: 'joined', registradas: 'joined', cadastrados: 'joined', cadastradas: 'joined', cadastraram: 'joined',
  creados: 'created', creadas: 'created', criados: 'created', criadas: 'created',
  todos: 'all', todas: 'all', despues: 'after', después: 'after', depois: 'after', até: 'until',
  nombre: 'name', correo: 'email', empresa: 'company', ciudad: 'city', cidade: 'city', país: 'country',
};

/** Month names in Spanish and Portuguese ("marzo", "janeiro") that are not English words, from ICU. */
function monthNames(): Record<string, string> {
  const english = new Set(englishWords as string[]);
  const en = new Intl.DateTimeFormat('en', { month: 'long', timeZone: 'UTC' });
  const out: Record<string, string> = {};
  for (const lang of ['es', 'pt']) {
    const f = new Intl.DateTimeFormat(lang, { month: 'long', timeZone: 'UTC' });
    for (let m = 0; m < 12; m++) {
      const d = new Date(Date.UTC(2026, m, 1));
      const name = fold(f.format(d));
      if (!english.has(name) && name !== en.format(d).toLowerCase()) out[name] = en.format(d).toLowerCase();
    }
  }
  return out;
}

/** Spanish or Portuguese word (lower case, with or without accents) -> the English word it stands for. */
export const MIXED_IN_WORDS: Readonly<Record<string, string>> = WORDS;

/** Spanish and Portuguese month names -> the English ones (read by mixed-in.ts, outside names: "Rio de Janeiro"). */
export const MIXED_IN_MONTHS: Readonly<Record<string, string>> = monthNames();
