# compiler/workload.mk: workload files (.wkld), placement, system presets by name.
