"""The worker: RQ jobs, the scheduler that queues them, and the process that runs them."""
