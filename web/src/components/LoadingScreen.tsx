import { Spinner, makeStyles } from '@fluentui/react-components';

const useStyles = makeStyles({
  root: { display: 'flex', alignItems: 'center', justifyContent: 'center', minHeight: '60vh', width: '100%' },
});

/** "Loading..." while the auth check, a redirect or a screen's data is on its way (spec §2). */
export function LoadingScreen() {
  const s = useStyles();
  return (
    <div className={s.root} role="status">
      <Spinner label="Loading..." labelPosition="below" />
    </div>
  );
}
