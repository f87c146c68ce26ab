import type { StoreApi } from 'zustand/vanilla';
import type { BatchEstimate, BatchProgressEvent, BatchSummary, CollisionPolicy, MetadataPolicy, OutputFormat, ServiceUnreachable } from '../../shared/engine/model';
import type { ProviderReport } from '../../shared/engine/provider-report';
import type { DryRunReport, HotFolderActivity, HotFolderConfigInput, HotFolderState } from '../../shared/hotfolders/model';
import type { Api } from '../../shared/ipc/contract';
import { APP_VIEWS, type AppInfo, type AppView, type PathKind } from '../../shared/ipc/channels/files';
import { ITEM_FILTERS, type ItemFilter } from '../../shared/ipc/channels/item-window';
import type { EstimateProgress } from '../../shared/ipc/channels/batches';
import type { ServiceStatus } from '../../shared/ipc/channels/service';
import type { ConsentRequest } from '../../shared/ipc/channels/settings';
import type { AspectRatio, Balance, ImageSize, SwitchField, WorkflowDetail, WorkflowSummary } from '../../shared/service/model';
import type { KeyStatus } from '../../shared/settings/key-status';
import type { Settings, SettingsPatchInput, SettingsWarning } from '../../shared/settings/schema';
import type { StudioConnectionTest, StudioStatus } from '../../shared/studio/model';
import type { UiError } from '../lib/errors';
import type { FormState } from '../lib/form-model';
import type { RecipeSlice } from './recipe-state';
import type { HistorySlice } from './history-state';
import type { ReviewSlice } from './review-state';
import type { ItemList } from './item-lists';

// The store's whole shape in one place: every slice's state and actions, the combined AppState and the creator
// type. Slices implement these and import them from here; nothing here imports a slice, so there is no cycle
// between the slices and the type that joins them.

/** The batch being put together on the Workflows screen, before anything is spent. */
export interface BatchDraft {
  paths: string[];
  recursive: boolean;
  /** null: the fixed folder from Settings, else a `Batchroom` folder next to the photos. */
  outputFolder: string | null;
  namingTemplate: string | null;
  collisionPolicy: CollisionPolicy | null;
  /** null: the policy from Settings. */
  metadataPolicy: MetadataPolicy | null;
  /** null: the format from Settings. */
  outputFormat: OutputFormat | null;
  budget: number | null;
  /** The job and client the batch is for ('' = none): kept after Start, so the next batch of the session has them. */
  job: string;
  client: string;
  /** Run photos the done ledger knows again (and pay again): chosen in the summary, per estimate. */
  rerun: boolean;
}

/**
 * What the draft costs, from main's estimate of exactly this draft (never from counting file names): asked for a
 * moment after the draft stops changing, and reused by "Review batch…" when nothing changed since.
 */
export type DraftPrice =
  | { state: 'none' }
  /** The form is not complete yet: there is no batch to price. */
  | { state: 'incomplete' }
  | { state: 'estimating'; key: string }
  | { state: 'priced'; key: string; estimate: BatchEstimate }
  /** The estimate failed (the summary says why when asked). */
  | { state: 'failed'; key: string };

export interface BatchSlice {
  draft: BatchDraft;
  draftPrice: DraftPrice;
  estimate: BatchEstimate | null;
  estimating: boolean;
  /** How far main's running estimate is (batches:estimateProgress: only one that takes over 1 s says so); null otherwise. */
  estimateProgress: EstimateProgress | null;
  starting: boolean;
  /** Why the estimate or the start failed (shown in the form or the summary, not as a passing notice). */
  draftError: UiError | null;
  /** What main says each added path is (files:checkPaths); a path not yet answered, or on an older host, is absent. */
  pathKinds: Record<string, PathKind>;
  addPaths(paths: string[]): void;
  removePath(path: string): void;
  clearPaths(): void;
  setDraft(patch: Partial<BatchDraft>): void;
  /** Validates the form, then asks main to scan and price the batch; opens the summary on success. */
  requestEstimate(): Promise<void>;
  applyEstimateProgress(progress: EstimateProgress): void;
  /** Stops the running estimate (the Cancel beside its progress bar): nothing was sent; the draft is priced again when it changes. */
  cancelEstimate(): Promise<void>;
  /** The draft changed: price it again shortly (quietly: no form errors shown, no summary opened). */
  scheduleDraftPrice(): void;
  resetEstimate(): void;
  /** From the summary: include (or leave out again) the photos already done, and price the batch again. */
  setRerun(rerun: boolean): Promise<void>;
  /** Creates the batch from the summary and switches to the queue; `tryFirst`: only that many photos, spread. */
  startBatch(options?: { tryFirst?: number }): Promise<boolean>;
}

export interface CatalogSlice {
  workflows: WorkflowSummary[];
  workflowsLoaded: boolean;
  workflowsError: UiError | null;
  /** Set when the service's listing stopped while it said more workflows exist: the catalog shown is partial. */
  workflowsWarning: string | null;
  tagFilter: string | null;
  search: string;
  details: Record<string, WorkflowDetail>;
  selectedWorkflowId: string | null;
  detailError: UiError | null;
  form: FormState | null;
  loadWorkflows(): Promise<void>;
  setTagFilter(tag: string | null): void;
  setSearch(text: string): void;
  /** Opens a workflow: fetches its input schema and starts a fresh form from its defaults. */
  selectWorkflow(id: string | null): Promise<void>;
  setText(fieldId: string, value: string): void;
  toggleSwitch(field: SwitchField, optionId: string): void;
  setAspectRatio(ratio: AspectRatio | null): void;
  setImageSize(size: ImageSize | null): void;
  setBatchField(fieldId: string): void;
  setFixedImage(fieldId: string, path: string | null): void;
  revealFormErrors(): void;
  replaceForm(form: FormState): void;
  /**
   * Lends the one generated form to another editor (the hot-folder dialog): returns the function that puts the
   * Workflows screen's workflow and form back as they were, so a hot folder's Look never leaks into the batch form.
   */
  borrowForm(): () => void;
}

export interface HotFolderSlice {
  hotFolders: HotFolderState[];
  hotFoldersLoaded: boolean;
  /** Why the list could not be read (e.g. hot folders are not available in this host). */
  hotFoldersError: UiError | null;
  activity: HotFolderActivity[];
  dryRuns: Record<string, DryRunReport>;
  /** A folder dropped on the Hot folders screen: the editor opens with it filled in. */
  pendingFolderPath: string | null;
  setPendingFolderPath(path: string | null): void;
  loadHotFolders(): Promise<void>;
  /** Validates and saves; answers field errors (path → message) or null when saved. */
  saveHotFolder(config: HotFolderConfigInput): Promise<Record<string, string> | null>;
  removeHotFolder(id: string): Promise<void>;
  setArmed(id: string, armed: boolean): Promise<void>;
  dryRun(id: string): Promise<void>;
  reprocess(id: string): Promise<void>;
  applyHotFolders(list: HotFolderState[]): void;
  applyActivity(activity: HotFolderActivity): void;
}

/** The status chips: the same filters main's batches:itemWindow answers. */
export const STATUS_FILTERS = ITEM_FILTERS;

export type StatusFilter = ItemFilter;

export interface QueueSlice {
  batches: Record<string, BatchSummary>;
  /** Open batches in submit order (priority, then queue order), then the finished ones newest first. */
  batchOrder: string[];
  selectedBatchId: string | null;
  /** Windows of batches' items (item-lists.ts), by listKey(batchId, filter): never a whole 100k-item batch. */
  itemLists: Record<string, ItemList>;
  statusFilter: StatusFilter;
  progressEvents: number;
  /** Set while the engine cannot reach the service (from the progress events): drives the outage banners. */
  unreachable: ServiceUnreachable | null;
  loadBatches(): Promise<void>;
  /** Reads the batch's loaded item pages again. */
  loadItems(batchId: string): Promise<void>;
  /** Loads one page (PAGE_SIZE items) of a batch's list under a filter, unless it is loaded and current. */
  loadItemPage(batchId: string, filter: StatusFilter, page: number): Promise<void>;
  selectBatch(batchId: string | null): void;
  setStatusFilter(filter: StatusFilter): void;
  upsertBatches(batches: BatchSummary[]): void;
  applyProgress(event: BatchProgressEvent): void;
  pauseBatch(batchId: string): Promise<void>;
  resumeBatch(batchId: string): Promise<void>;
  cancelBatch(batchId: string): Promise<void>;
  cancelAll(): Promise<void>;
  retryFailed(batchId: string): Promise<void>;
  /** After a try-first batch: the rest of the selection, same settings, as a new batch (selected in the queue). */
  continueTrial(batchId: string): Promise<void>;
  /** The executions of a batch charged without a result, as a CSV to send the provider (null when it failed). */
  providerReport(batchId: string): Promise<ProviderReport | null>;
  cancelItem(itemId: string): Promise<void>;
  /** Only after the user confirmed they understand it may be charged twice. */
  resubmitItem(itemId: string, acknowledgeMayChargeTwice: true): Promise<void>;
  moveToFront(batchId: string, itemIds: string[]): Promise<void>;
  /** Queue order across batches: before (front) or after (back) every other open batch; sent photos run on. */
  moveBatch(batchId: string, to: 'front' | 'back'): Promise<void>;
}

export interface StudioPasswordOutcome {
  ok: boolean;
  message: string;
}

export type StudioTest = { state: 'idle' } | { state: 'testing' } | { state: 'done'; result: StudioConnectionTest } | { state: 'failed'; error: UiError };

/** The shared studio ledger (docs/studio.md): its password in the keychain, a connection test, and the panel's status. */
export interface StudioSlice {
  studioStatus: StudioStatus | null;
  /** Why the last status read failed (unreachable, refused login, none set); the last good status stays shown. */
  studioError: UiError | null;
  studioLoading: boolean;
  /** When the status shown was read (ISO). */
  studioReadAt: string | null;
  studioTest: StudioTest;
  loadStudioStatus(): Promise<void>;
  testStudioConnection(url: string): Promise<void>;
  /** Sends the password to main's keychain once; the renderer keeps no copy. Answers what to tell the user. */
  saveStudioPassword(url: string, password: string): Promise<StudioPasswordOutcome>;
  forgetStudioPassword(url: string): Promise<StudioPasswordOutcome>;
}

export { ZOOM_LEVELS, type CompareMode, type ReviewSlice, type Zoom } from './review-state';

export type KeyCheck = { state: 'idle' } | { state: 'checking' } | { state: 'ok'; message: string } | { state: 'failed'; error: UiError };

/**
 * Main is asking the person at the machine before a key or the photos go to a new origin: `dialog` (Electron: wait
 * for it) or `code` (the browser host printed one on its terminal). The renderer only shows it and passes codes on.
 */
export interface ConsentPrompt extends ConsentRequest {
  via: 'dialog' | 'code';
  /** The last code was wrong (tries left) or void: said in words under the field. */
  problem?: string;
}

export interface ServiceSlice {
  appInfo: AppInfo | null;
  status: ServiceStatus | null;
  balance: Balance | null;
  balanceError: UiError | null;
  settings: Settings | null;
  settingsWarnings: SettingsWarning[];
  keyStatus: KeyStatus | null;
  keyCheck: KeyCheck;
  /** The confirmation main has open, if any (consent:requested); cleared when the call that caused it ends. */
  consent: ConsentPrompt | null;
  loadService(): Promise<void>;
  refreshBalance(): Promise<void>;
  /** Saves a partial settings change; false (and a notice) when main refused it. */
  updateSettings(patch: SettingsPatchInput): Promise<boolean>;
  /** Sends the key to main once; the renderer keeps nothing but the masked form main answers with. */
  setKey(apiKey: string, serviceUrl?: string): Promise<boolean>;
  /** Main asks the user (dialog or terminal code), then checks the key saved for `fromServiceUrl` with the current service and stores it. */
  reuseKey(fromServiceUrl: string): Promise<boolean>;
  /** Main asks the user, then lets the environment's key go to the service now configured. */
  allowKeyOrigin(): Promise<boolean>;
  deleteKey(): Promise<void>;
  applyServiceStatus(status: ServiceStatus): void;
  applyBalance(balance: Balance): void;
  applySettings(settings: Settings): void;
  applyConsentRequest(request: ConsentPrompt): void;
  /** Passes the typed code to main; true when it was accepted. */
  answerConsent(code: string): Promise<boolean>;
  cancelConsent(): Promise<void>;
}

export const VIEWS = APP_VIEWS;

export type View = AppView;

export interface Notice {
  id: number;
  level: 'info' | 'warning' | 'error';
  message: string;
  /** Technical detail, shown on request. */
  detail?: string;
}

export interface UiSlice {
  view: View;
  notices: Notice[];
  setView(view: View): void;
  notify(level: Notice['level'], message: string, detail?: string): void;
  notifyError(error: UiError): void;
  dismissNotice(id: number): void;
}

export type AppState = UiSlice & ServiceSlice & CatalogSlice & BatchSlice & QueueSlice & ReviewSlice & HotFolderSlice & StudioSlice & HistorySlice & RecipeSlice;
export type AppStore = StoreApi<AppState>;

type SetState = StoreApi<AppState>['setState'];
type GetState = StoreApi<AppState>['getState'];

/** Each slice gets the store's set/get and the bridge; slices may call each other's actions through get(). */
export type SliceCreator<S> = (set: SetState, get: GetState, bridge: Api) => S;
