//go:build linux

package output

import "golang.org/x/sys/unix"

// fsTopdirFlag is FS_TOPDIR_FL (linux/fs.h; chattr +T): the folders made
// directly inside a folder with it are placed by ext4's Orlov allocator,
// spread over the disk's block groups, instead of next to their parent.
const fsTopdirFlag = 0x00020000

// spreadFolders marks the staging folder the new tree is made in, so that
// ext4 places the tree's root folder with the Orlov allocator: in the block
// group with the fewest folders among those with more free inodes and
// blocks than average, searched from a group given by a hash of the
// folder's name (a random name: a new start each build). Every folder and
// file below the root then follows its parent.
//
// Without it the new tree goes where the previous output was (beside it,
// in the same folder): ext4 without a journal will not reuse an inode freed
// in the last minutes and scans past each one, so a build right after the
// old output was deleted (a clean CI build, `rm -rf public && sitegen
// build`) spent most of its time in mkdir and open. Measured at 10,000
// pages on this machine's ext4 (bench/ssgbench/RESULTS.md): 8.5–16.3 s with
// 12–26 s of system time, 2.1–2.4 s with 1.0–1.5 s with the tree's root
// placed this way. Marking the tree's root itself (spreading pl/, en/,
// page-data/, whose names, and so whose groups, are the same every build)
// helped little: 6.7–11.2 s. Where the flag is not supported
// (tmpfs, other file systems) or not allowed, nothing changes: the error is
// ignored.
func spreadFolders(dir string) {
	fd, err := unix.Open(dir, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
	if err != nil {
		return
	}
	defer unix.Close(fd)
	flags, err := unix.IoctlGetInt(fd, unix.FS_IOC_GETFLAGS)
	if err != nil || flags&fsTopdirFlag != 0 {
		return
	}
	unix.IoctlSetPointerInt(fd, unix.FS_IOC_SETFLAGS, flags|fsTopdirFlag)
}
