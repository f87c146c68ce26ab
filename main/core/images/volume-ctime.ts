import { statfs } from 'node:fs/promises';

// Whether a volume's ctime is its own. FAT/exFAT have no change time: the system reports the modification time as
// ctime, which a tool that keeps a photo's date (exiftool -P, an XMP padding rewrite) restores. A file whose ctime
// differs from its mtime is surely on a volume that keeps one; one whose ctime equals it is either freshly written
// (ext4, APFS, NTFS: both set at once) or on such a volume — asked of the volume, once per device.

/** statfs f_type of volumes without a change time on Linux: vfat, exFAT, and FUSE block devices (exfat-fuse, ntfs-3g). */
const NO_CTIME_TYPES = new Set([0x4d44, 0x2011bab0, 0x65735546]);

const byDevice = new Map<string, Promise<boolean>>();

/** True when the volume holding `path` (device `device`) keeps a ctime no tool sets back. Unknown → false. */
export function volumeKeepsCtime(path: string, device: string): Promise<boolean> {
  let answer = byDevice.get(device);
  if (!answer) {
    // Elsewhere the type numbers mean nothing portable: such a file is trusted only for moments (file-facts.ts).
    answer = process.platform !== 'linux'
      ? Promise.resolve(false)
      : statfs(path).then((s) => !NO_CTIME_TYPES.has(s.type), () => false);
    byDevice.set(device, answer);
  }
  return answer;
}

/**
 * statfs f_type of network and userspace filesystems on Linux: NFS, SMB, CIFS, SMB2, FUSE (sshfs, rclone, gvfs…)
 * and 9p. A stat on one of them waits on a server (a hard NFS mount: for ever when it stalls).
 */
const REMOTE_TYPES = new Set([0x6969, 0x517b, 0xff534d42, 0xfe534d42, 0x65735546, 0x01021997]);

/**
 * True only when the volume holding `path` is known to be a local disk, where a synchronous lstat costs
 * microseconds (the hot folders' walk, local-walk.ts). A network or FUSE filesystem, an unreadable statfs, and every
 * volume off Linux (the type numbers mean nothing portable there) answer false: their stats stay asynchronous, so a
 * stalled share holds a thread of libuv's pool, not the process. Asked of the thread pool, never blocking either.
 */
export function volumeIsLocal(path: string): Promise<boolean> {
  if (process.platform !== 'linux') return Promise.resolve(false);
  return statfs(path).then((s) => !REMOTE_TYPES.has(s.type), () => false);
}
