import type { StoreApi } from 'zustand/vanilla';
import type { Api } from '../../shared/ipc/contract';
import type { BatchSlice } from './batch-slice';
import type { CatalogSlice } from './catalog-slice';
import type { HotFolderSlice } from './hotfolder-slice';
import type { QueueSlice } from './queue-slice';
import type { ReviewSlice } from './review-slice';
import type { ServiceSlice } from './service-slice';
import type { UiSlice } from './ui-slice';

export type AppState = UiSlice & ServiceSlice & CatalogSlice & BatchSlice & QueueSlice & ReviewSlice & HotFolderSlice;
export type AppStore = StoreApi<AppState>;

type SetState = StoreApi<AppState>['setState'];
type GetState = StoreApi<AppState>['getState'];

/** Each slice gets the store's set/get and the bridge; slices may call each other's actions through get(). */
export type SliceCreator<S> = (set: SetState, get: GetState, bridge: Api) => S;
