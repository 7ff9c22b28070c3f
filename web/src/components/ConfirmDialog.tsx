// The one confirmation dialog of the app (alert dialog: focus trapped, Escape cancels, focus returns
// to what opened it): a title, the question, Cancel and the confirming action. A destructive action
// (`danger`: delete, ban, revoke, clear, undo an import) is drawn in the danger colour.
import { Button, Dialog, DialogActions, DialogBody, DialogContent, DialogSurface, DialogTitle, makeStyles, tokens } from '@fluentui/react-components';
import type { ReactNode } from 'react';

const useStyles = makeStyles({
  danger: {
    backgroundColor: tokens.colorStatusDangerBackground3,
    color: tokens.colorNeutralForegroundOnBrand,
    ':hover': { backgroundColor: tokens.colorStatusDangerBackground3Hover, color: tokens.colorNeutralForegroundOnBrand },
    ':hover:active': { backgroundColor: tokens.colorStatusDangerBackground3Pressed, color: tokens.colorNeutralForegroundOnBrand },
  },
});

export function ConfirmDialog(props: { open: boolean; title: string; children: ReactNode; confirmLabel: string; danger?: boolean; onConfirm: () => void; onCancel: () => void }) {
  const s = useStyles();
  return (
    <Dialog modalType="alert" open={props.open} onOpenChange={(_e, d) => !d.open && props.onCancel()}>
      <DialogSurface>
        <DialogBody>
          <DialogTitle>{props.title}</DialogTitle>
          <DialogContent>{props.children}</DialogContent>
          <DialogActions>
            <Button onClick={props.onCancel}>Cancel</Button>
            <Button appearance="primary" className={props.danger ? s.danger : undefined} onClick={props.onConfirm}>
              {props.confirmLabel}
            </Button>
          </DialogActions>
        </DialogBody>
      </DialogSurface>
    </Dialog>
  );
}
