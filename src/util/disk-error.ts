/**
 * Why a file could not be written, in words (docs/exit-codes.md "Files"): a raw `ENOSPC: no space left on device,
 * write` tells a user neither which file nor what to do. Used by the journal, the lock, `--report` and every
 * atomic write.
 */
const REASONS: Record<string, string> = {
  ENOSPC: 'the disk is full',
  EDQUOT: 'the disk quota is used up',
  EROFS: 'the file system is read-only',
  EACCES: 'permission denied',
  EPERM: 'permission denied',
  ENOTDIR: 'a part of the path is a file, not a directory',
  ENOENT: 'no such file or directory',
  EISDIR: 'it is a directory',
  EEXIST: 'a file is in the way',
  EIO: 'the disk reported an input/output error',
  EMFILE: 'too many files are open',
  ENFILE: 'too many files are open',
  ENAMETOOLONG: 'the path is too long',
  EFBIG: 'the file is too large for the file system',
};

/** The cause of a file-system error in words; the error's own message when its code is not a known one. */
export function diskErrorReason(error: unknown): string {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  if (code && REASONS[code]) return REASONS[code];
  const message = error instanceof Error ? error.message : String(error);
  return message.replace(/\.+$/, '');
}
