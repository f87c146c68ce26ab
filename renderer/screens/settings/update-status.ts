import { useCallback, useEffect, useState } from 'react';
import type { UpdateStatus } from '../../../shared/update/model';
import { useBridge } from '../../store/context';

/**
 * The app's update status (docs/updates.md): read once, then pushed by `update:changed`. Null until known, and in a
 * host that cannot answer (an older browser host). Shared by the notice and Settings › Updates.
 */
export function useUpdateStatus() {
  const api = useBridge();
  const [status, setStatus] = useState<UpdateStatus | null>(null);
  useEffect(() => {
    let live = true;
    api.update.status({}).then((r) => { if (live && r.ok) setStatus(r.data); }, () => undefined);
    const off = api.update.onChanged((s) => setStatus(s));
    return () => {
      live = false;
      off();
    };
  }, [api]);
  const answer = (r: Awaited<ReturnType<typeof api.update.check>>) => { if (r.ok) setStatus(r.data); };
  const check = useCallback(async () => answer(await api.update.check({})), [api]);
  const install = useCallback(async () => answer(await api.update.install({})), [api]);
  return { status, check, install };
}
