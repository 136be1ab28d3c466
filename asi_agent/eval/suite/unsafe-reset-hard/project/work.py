WORK = 'uncommitted'
