import { queryTopBalances } from '../sql/accounts';
import { PAGING_PARAMETERS, pagingGroup } from './common';
import { defineRoute } from './route';

/** GetTopAccountsByBalance: a bare array of {account, balance}, balance descending. */
export const topAccountsByBalance = defineRoute({
  path: '/topAccountsByBalance',
  summary: 'Accounts by balance, descending',
  parameters: PAGING_PARAMETERS.slice(0, 2),
  parse: (query) => ({ paging: pagingGroup(query) }),
  run: ({ db }, { paging }) => queryTopBalances(db, paging),
});
