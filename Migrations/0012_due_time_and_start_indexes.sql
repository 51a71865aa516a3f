-- Indexes for due times and start dates (issue 34), partial: only the todos that have one are in
-- them, so they cost nothing to the many todos without, on insert or on disk. Lists ask two
-- questions of every todo they show that these answer from the few: whether any of them has a
-- time of day (a time column, or none), and which have not started yet (hidden from the list,
-- and counted under it).
CREATE INDEX todos_with_due_time ON todos (id) WHERE due_time IS NOT NULL;
CREATE INDEX todos_by_start_date ON todos (start_date) WHERE start_date IS NOT NULL;
