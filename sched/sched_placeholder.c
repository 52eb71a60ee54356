/* replaced by the queue sources */ typedef int hive_sched_placeholder;
