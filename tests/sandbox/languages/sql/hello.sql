SELECT 'hello';
