SELECT 'before';
.exit 3
