// Small browser-storage facts of the spec: the sidebar's collapsed state (remembered, collapsed by
// default) and the CRM modal's once-per-session flag (cleared on sign-out).
const SIDEBAR_KEY = 'crm.sidebar.collapsed';
const CRM_MODAL_KEY = 'crm.crmModalShown';

export const sidebarCollapsed = {
  get: (): boolean => localStorage.getItem(SIDEBAR_KEY) !== 'false',
  set: (collapsed: boolean) => localStorage.setItem(SIDEBAR_KEY, String(collapsed)),
};

export const crmModalFlag = {
  wasShown: (): boolean => sessionStorage.getItem(CRM_MODAL_KEY) === '1',
  markShown: () => sessionStorage.setItem(CRM_MODAL_KEY, '1'),
  clear: () => sessionStorage.removeItem(CRM_MODAL_KEY),
};
