-- Migration 24: a duet of a build (`benchorch duet IMAGE IMAGE
-- --new-build NAME`, `--base-build NAME`): the build of that side's image
-- (`benchorch rebuild`, table builds) its guest loaded in place of the
-- library the distribution ships, under the library's own name, so that
-- its curves pair with the other side's; NULL = the shipped libraries
-- (every duet stored before this migration).
ALTER TABLE duets ADD COLUMN base_build TEXT;
ALTER TABLE duets ADD COLUMN new_build TEXT;
-- duet_libraries.path: the file the side's guest loaded the library from
-- (a build's is under /run/benchorch/builds); NULL before this migration.
ALTER TABLE duet_libraries ADD COLUMN path TEXT;
