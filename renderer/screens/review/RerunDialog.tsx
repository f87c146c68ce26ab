import { useEffect, useMemo } from 'react';
import { Dialog } from '../../components/Dialog';
import { toParameters, validateForm } from '../../lib/form-model';
import { selectCurrentDetail } from '../../store/catalog-slice';
import { useActions, useApp } from '../../store/context';
import { OutputOverrides, SwitchChips, TextFieldInput } from '../workflows/FormFields';
import { useFormat, useT } from '../../i18n';

/** Re-run the rejected results of a batch with changed parameters (a new batch, same workflow). */
export function RerunDialog({ batchId, workflowId, rejected, onClose }: { batchId: string; workflowId: string; rejected: number; onClose: () => void }) {
  const detail = useApp(selectCurrentDetail);
  const form = useApp((s) => s.form);
  const { selectWorkflow, rerunRejected, revealFormErrors } = useActions();
  const t = useT('review');
  const format = useFormat();
  useEffect(() => {
    void selectWorkflow(workflowId);
  }, [selectWorkflow, workflowId]);
  const ready = detail?.id === workflowId && form?.workflowId === workflowId;
  const errors = useMemo(() => (ready && detail && form ? validateForm(detail, form) : {}), [ready, detail, form]);
  const shown = form?.showErrors ? errors : {};

  const submit = async () => {
    if (!detail || !form) return;
    if (Object.keys(errors).length > 0) {
      revealFormErrors();
      return;
    }
    if (await rerunRejected(batchId, toParameters(detail, form))) onClose();
  };

  return (
    <Dialog
      title={t('RerunDialog.title', { count: rejected })}
      onClose={onClose}
      wide
      footer={
        <>
          <button type="button" className="btn" onClick={onClose}>{t('cancel')}</button>
          <button type="button" className="btn btn-primary" disabled={!ready} onClick={() => void submit()}>{t('RerunDialog.confirm')}</button>
        </>
      }
    >
      {!ready || !detail ? (
        <p className="muted" role="status">{t('RerunDialog.loading')}</p>
      ) : (
        <>
          <p className="muted">{t('RerunDialog.intro', { credits: format.credits(detail.creditCost) })}</p>
          {detail.inputSchema.textFields.map((f) => <TextFieldInput key={f.id} field={f} error={shown[`text:${f.id}`]} />)}
          {detail.inputSchema.switchFields.map((f) => <SwitchChips key={f.id} field={f} error={shown[`switch:${f.id}`]} />)}
          <OutputOverrides />
        </>
      )}
    </Dialog>
  );
}
