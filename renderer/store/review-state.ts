import type { ExportRequest } from '../../shared/engine/export-request';
import type { Verdict } from '../../shared/engine/model';
import type { WorkflowParameters } from '../../shared/service/model';

// The Review screen's part of the store's shape (state.ts joins it into AppState). Types only, as in state.ts.

export type CompareMode = 'slider' | 'side';

export const ZOOM_LEVELS = [1, 2, 4] as const;

export type Zoom = (typeof ZOOM_LEVELS)[number];

export interface ReviewSlice {
  reviewItemId: string | null;
  /** Where Review is in the batch's saved items (0-based; its page may still be loading). */
  reviewIndex: number;
  /** Verdicts given in this session, per batch (item id → verdict): "Re-run rejected" counts them before their pages load. */
  verdicts: Record<string, Record<string, Verdict>>;
  compareMode: CompareMode;
  zoom: Zoom;
  /** Before/after divider, 0–100 (% from the left). */
  sliderPosition: number;
  /** Local path → loadable URL (or null while loading / when it failed). */
  previewUrls: Record<string, string | null>;
  /** Local path → its queue thumbnail's URL; null while it is made or when the file has none. */
  thumbnailUrls: Record<string, string | null>;
  loadThumbnail(path: string): Promise<void>;
  openReview(batchId: string, itemId?: string): void;
  stepReview(delta: number): void;
  /** Shows the saved item at `index` of the batch's saved list (Review's thumbnail strip). */
  showReviewAt(index: number): void;
  setCompareMode(mode: CompareMode): void;
  setZoom(zoom: Zoom): void;
  setSliderPosition(position: number): void;
  loadPreview(path: string): Promise<void>;
  setVerdict(itemId: string, verdict: Verdict): Promise<void>;
  /** Re-runs the batch's rejected items with new parameters, as a new batch. */
  rerunRejected(batchId: string, parameters: WorkflowParameters): Promise<boolean>;
  /** "Export again without paying": the batch's paid results made into other files, as a new (free) batch. */
  exportAgain(request: ExportRequest): Promise<boolean>;
  revealFile(path: string): Promise<void>;
  openFolder(path: string): Promise<void>;
}
