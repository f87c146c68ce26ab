import type { WorkflowDetail } from '../../../shared/service/model';

export const TEST_KEY = 'sk_live_TestKeyDoNotLeak0123456789';

export const WORKFLOW: WorkflowDetail = {
  id: 'warm-look',
  name: 'Warm look',
  description: '',
  tags: [],
  creditCost: 2,
  inputSchema: {
    imageFields: [{ id: 'photo', label: 'Photo', required: true }],
    textFields: [{ id: 'look', label: 'Look', required: false, presetOptions: [{ id: 'warm', label: 'Warm' }] }],
    switchFields: [],
  },
};

export const REQUEST = { images: { photo: 'data:image/png;base64,iVBORw0KGgoAAAANSUhEUg==' }, texts: { look: 'warm' } };

export const WORKFLOW_WIRE = { id: 'warm-look', name: 'Warm look', creditCost: 2, inputSchema: { imageFields: [{ id: 'photo', label: 'Photo', required: true }], textFields: [], switchFields: [] } };

/** A sleep that records the delays asked for and returns at once (no wall-clock waiting in unit tests). */
export function fakeSleep() {
  const delays: number[] = [];
  const sleep = async (ms: number, signal?: AbortSignal) => {
    delays.push(ms);
    if (signal?.aborted) throw Object.assign(new Error('aborted'), { name: 'AbortError' });
  };
  return { delays, sleep };
}
