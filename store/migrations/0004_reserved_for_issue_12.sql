-- Placeholder so that 0005 (issue 13) applies in the h-gen branch: issue 12's
-- 0004 (relevance) takes this number. DROP THIS FILE WHEN MERGING h-ir.
SELECT 1;
