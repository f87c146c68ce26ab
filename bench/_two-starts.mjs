// The floor of a `batchroom` image command's start (bench/_journal-restart.ts bareStarts): the launcher's relaunch
// under the memory profile and nothing else, i.e. two Node starts and the wait between them.
import { relaunchWithMemoryProfile } from '../bin/memory-profile.mjs';

const relaunched = await relaunchWithMemoryProfile();
process.exitCode = relaunched ?? 0;
