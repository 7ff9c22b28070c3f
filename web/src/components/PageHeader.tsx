// A screen's header: title, subtitle, extra content (e.g. the "{n} AI segments for you" link) and the
// user menu on the right.
import { Text, makeStyles, tokens } from '@fluentui/react-components';
import type { ReactNode } from 'react';

const useStyles = makeStyles({
  header: {
    display: 'flex',
    alignItems: 'center',
    justifyContent: 'space-between',
    gap: tokens.spacingHorizontalL,
    minHeight: '56px',
    padding: `${tokens.spacingVerticalS} ${tokens.spacingHorizontalXL}`,
    backgroundColor: tokens.colorNeutralBackground1,
    borderBottom: `${tokens.strokeWidthThin} solid ${tokens.colorNeutralStroke2}`,
    flexWrap: 'wrap',
  },
  titles: { display: 'flex', alignItems: 'baseline', gap: tokens.spacingHorizontalM, flexWrap: 'wrap', minWidth: 0 },
  subtitle: { color: tokens.colorNeutralForeground3 },
  right: { display: 'flex', alignItems: 'center', gap: tokens.spacingHorizontalL },
});

export function PageHeader({ title, subtitle, extra, menu }: { title: string; subtitle?: string; extra?: ReactNode; menu: ReactNode }) {
  const s = useStyles();
  return (
    <header className={s.header}>
      <div className={s.titles}>
        <Text as="h1" size={600} weight="semibold">
          {title}
        </Text>
        {subtitle && <Text className={s.subtitle}>{subtitle}</Text>}
      </div>
      <div className={s.right}>
        {extra}
        {menu}
      </div>
    </header>
  );
}
