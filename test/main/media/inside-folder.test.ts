import { describe, expect, it } from 'vitest';
import { isInside, isWithin, relativeInside, segmentsInside, subfolderOf } from '../../../main/core/media/inside-root';
import { ignoreRulesFor } from '../../../main/core/watch/ignore';

// The one "is this path inside this folder" rule. Platforms are passed explicitly so Windows and macOS semantics are
// checked on any machine.

describe('isInside (the folder itself or below it)', () => {
  it('never takes a prefix sibling for a child', () => {
    expect(isInside('/a/bc', '/a/b', 'linux')).toBe(false);
    expect(isInside('/a/bc/x.jpg', '/a/b', 'linux')).toBe(false);
    expect(isInside('/a/b-2/x.jpg', '/a/b', 'linux')).toBe(false);
    expect(isInside('/a/b/c', '/a/b', 'linux')).toBe(true);
    expect(isInside('C:\\a\\bc', 'C:\\a\\b', 'win32')).toBe(false);
  });

  it('counts the folder itself, with or without trailing separators', () => {
    expect(isInside('/a/b', '/a/b', 'linux')).toBe(true);
    expect(isInside('/a/b/', '/a/b', 'linux')).toBe(true);
    expect(isInside('/a/b', '/a/b//', 'linux')).toBe(true);
    expect(isInside('/a/b/x.jpg', '/a/b/', 'linux')).toBe(true);
    expect(isInside('C:\\a\\b\\', 'C:\\a\\b', 'win32')).toBe(true);
    expect(segmentsInside('/a/b/', '/a/b', 'linux')).toEqual([]);
  });

  it('resolves `..` segments before comparing, and a name that only begins with two dots is a child', () => {
    expect(isInside('/a/b/../c', '/a/b', 'linux')).toBe(false);
    expect(isInside('/a/b/x/../y.jpg', '/a/b', 'linux')).toBe(true);
    expect(isInside('/a/c/../b/x.jpg', '/a/b', 'linux')).toBe(true);
    expect(isInside('/a/b/..', '/a/b', 'linux')).toBe(false);
    expect(isInside('/a/b/..photos/x.jpg', '/a/b', 'linux')).toBe(true);
    expect(isInside('/a/b/...', '/a/b', 'linux')).toBe(true);
    expect(isInside('C:\\a\\b\\..\\c', 'C:\\a\\b', 'win32')).toBe(false);
  });

  it('is case-insensitive on Windows and macOS volumes, case-sensitive on Linux', () => {
    expect(isInside('/Volumes/CARD/DCIM/x.jpg', '/volumes/card', 'darwin')).toBe(true);
    expect(isInside('/Volumes/CARD/DCIM/x.jpg', '/volumes/card', 'linux')).toBe(false);
    expect(isInside('c:\\photos\\x.jpg', 'C:\\Photos', 'win32')).toBe(true);
    expect(isInside('D:\\photos\\x.jpg', 'C:\\photos', 'win32')).toBe(false);
    // The path keeps its own spelling, so a mirrored sub-folder is named as the user named it.
    expect(relativeInside('/volumes/card', '/Volumes/CARD/DCIM/Day1/x.jpg', 'darwin')).toBe('DCIM/Day1/x.jpg');
  });

  it('knows Windows separators and drive roots', () => {
    expect(isInside('C:/a/b/x.jpg', 'C:\\a\\b', 'win32')).toBe(true);
    expect(isInside('C:\\x.jpg', 'C:\\', 'win32')).toBe(true);
    expect(isInside('\\\\server\\share\\in\\x.jpg', '\\\\server\\share\\in', 'win32')).toBe(true);
    expect(isInside('\\\\server\\other\\in\\x.jpg', '\\\\server\\share\\in', 'win32')).toBe(false);
    expect(relativeInside('C:\\a', 'C:\\a\\sub\\x.jpg', 'win32')).toBe('sub/x.jpg');
  });

  it('works from the file-system root', () => {
    expect(isInside('/x.jpg', '/', 'linux')).toBe(true);
    expect(relativeInside('/', '/a/x.jpg', 'linux')).toBe('a/x.jpg');
  });
});

describe('the variants built on it', () => {
  it('isWithin is strictly below (a served file is never the root itself)', () => {
    expect(isWithin('/srv/www', '/srv/www')).toBe(false);
    expect(isWithin('/srv/www', '/srv/www/index.html')).toBe(true);
    expect(isWithin('/srv/www', '/srv/www-old/index.html')).toBe(false);
    expect(isWithin('/srv/www', '/srv/www/../secret')).toBe(false);
  });

  it('relativeInside is null outside, "" for the folder, "/"-separated below', () => {
    expect(relativeInside('/a/b', '/a/bc/x.jpg', 'linux')).toBeNull();
    expect(relativeInside('/a/b', '/a/b', 'linux')).toBe('');
    expect(relativeInside('/a/b', '/a/b/c/d.jpg', 'linux')).toBe('c/d.jpg');
  });

  it('subfolderOf names the folder of a file below the root, "" for the root and for anything outside', () => {
    expect(subfolderOf('/in', '/in/x.jpg', 'linux')).toBe('');
    expect(subfolderOf('/in', '/in/day1/card2/x.jpg', 'linux')).toBe('day1/card2');
    expect(subfolderOf('/in', '/inbox/day1/x.jpg', 'linux')).toBe('');
    expect(subfolderOf('/in', '/in/..day/x.jpg', 'linux')).toBe('..day');
  });
});

describe("a hot folder's ignore rules", () => {
  const root = '/photos/in';
  const ignored = ignoreRulesFor(root, '/photos/in/results');

  it('ignore the folders a scan never searches, at any depth, as folders and as the files in them', () => {
    for (const dir of ['__MACOSX', '$RECYCLE.BIN', '$Recycle.Bin', 'System Volume Information', '.git']) {
      expect(ignored(`${root}/${dir}`), dir).toBe(true);
      expect(ignored(`${root}/${dir}/IMG_1.jpg`), dir).toBe(true);
      expect(ignored(`${root}/day1/${dir}/deep/IMG_1.jpg`), dir).toBe(true);
    }
  });

  it('never ignore the root, photos beside such folders, or a folder whose name only starts like one', () => {
    expect(ignored(root)).toBe(false);
    expect(ignored(`${root}/`)).toBe(false);
    expect(ignored(`${root}/IMG_1.jpg`)).toBe(false);
    expect(ignored(`${root}/__MACOSX-export/IMG_1.jpg`)).toBe(false);
    expect(ignored(`${root}/results-2/IMG_1.jpg`)).toBe(false);
    expect(ignored(`${root}/results/IMG_1.jpg`)).toBe(true);
    expect(ignored(`${root}/Done/IMG_1.jpg`)).toBe(true);
  });
});
