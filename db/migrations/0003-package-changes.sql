-- Migration 3: the package versions that changed between runs.
--  * package_changes: for each invocation (one distribution in one run),
--    every package whose version differs between the image it used and
--    the image the latest earlier run of the same distribution and
--    release used (any status, daemon or manual). old_version NULL: the
--    package is new; new_version NULL: it is gone. No rows when there was
--    no earlier run of that distribution, or it used the same image.
--    Written when the run is stored, in the run's transaction; merged with
--    its invocation like every table with an invocation_id.
--    previous_run_uuid names the run compared with (a uuid, so it
--    survives benchorch merge).
--  * package_changes_v: one readable row per change.
-- Runs stored before this migration get their rows here, computed the
-- same way from the images already stored.

CREATE TABLE package_changes (
	invocation_id	INTEGER NOT NULL REFERENCES invocations (id) ON DELETE CASCADE,
	package		TEXT NOT NULL,
	old_version	TEXT,		-- NULL: not in the previous image
	new_version	TEXT,		-- NULL: no longer in the image
	previous_run_uuid TEXT NOT NULL, -- the run whose image is compared
	PRIMARY KEY (invocation_id, package),
	CHECK (old_version IS NOT NULL OR new_version IS NOT NULL)
);

WITH cur AS (
	SELECT inv.id AS inv_id, inv.image_id AS new_id,
		(SELECT p.id FROM invocations p
		 JOIN images pim ON pim.id = p.image_id
		 WHERE pim.distro = im.distro AND pim.release = im.release
		   AND p.run_id < inv.run_id
		 ORDER BY p.run_id DESC, p.id DESC LIMIT 1) AS prev_inv
	FROM invocations inv JOIN images im ON im.id = inv.image_id),
pairs AS (
	SELECT c.inv_id, c.new_id, p.image_id AS old_id, r.uuid AS prev_uuid
	FROM cur c JOIN invocations p ON p.id = c.prev_inv
	JOIN runs r ON r.id = p.run_id
	WHERE p.image_id <> c.new_id)
INSERT INTO package_changes (invocation_id, package, old_version,
	new_version, previous_run_uuid)
SELECT x.inv_id, o.package, o.version, n.version, x.prev_uuid
FROM pairs x JOIN image_packages o ON o.image_id = x.old_id
LEFT JOIN image_packages n ON n.image_id = x.new_id AND n.package = o.package
WHERE n.version IS NULL OR n.version <> o.version
UNION ALL
SELECT x.inv_id, n.package, NULL, n.version, x.prev_uuid
FROM pairs x JOIN image_packages n ON n.image_id = x.new_id
WHERE NOT EXISTS (SELECT 1 FROM image_packages o
		  WHERE o.image_id = x.old_id AND o.package = n.package);

-- One readable row per changed package.
CREATE VIEW package_changes_v AS
SELECT
	inv.run_id		AS run_id,
	ru.uuid			AS run_uuid,
	ru.host			AS host,
	ru.started_at		AS run_started_at,
	inv.spec		AS spec,
	im.distro		AS distro,
	im.release		AS release,
	pc.package		AS package,
	pc.old_version		AS old_version,
	pc.new_version		AS new_version,
	pr.id			AS previous_run_id,
	pc.previous_run_uuid	AS previous_run_uuid
FROM package_changes pc
JOIN invocations inv ON inv.id = pc.invocation_id
JOIN runs ru ON ru.id = inv.run_id
LEFT JOIN images im ON im.id = inv.image_id
LEFT JOIN runs pr ON pr.uuid = pc.previous_run_uuid;
