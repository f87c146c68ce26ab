import { translatorFor, type TFunction } from '../../shared/i18n';
import { describeConsent, type ConfirmOriginChange } from '../core/app/origin-consent';

/** The part of Electron's `MessageBoxOptions` the question uses (entry.ts passes it to dialog.showMessageBox). */
export interface ConsentBox {
  type: 'warning';
  title: string;
  message: string;
  detail: string;
  buttons: string[];
  defaultId: number;
  cancelId: number;
  noLink: true;
}

/**
 * Electron's confirmation: a native, modal message box that main draws and the renderer cannot press. Cancel is the
 * default and the Escape answer, so a stray Enter never sends a key anywhere. The words come from the shared gate.
 */
export function dialogOriginConsent(
  showMessageBox: (box: ConsentBox) => Promise<{ response: number }>,
  /** The app's language for the button main names here (`native` catalog); the question's words are the core's. */
  t: () => TFunction<'native'> = () => translatorFor('en').ns('native'),
): ConfirmOriginChange {
  return {
    via: 'dialog',
    async confirm(request) {
      const text = describeConsent(request);
      const box: ConsentBox = {
        type: 'warning', title: text.title, message: text.message, detail: text.detail,
        buttons: [t()('dialog.cancel'), text.confirmLabel], defaultId: 0, cancelId: 0, noLink: true,
      };
      try {
        return (await showMessageBox(box)).response === 1;
      } catch {
        return false; // no dialog, no consent
      }
    },
  };
}
