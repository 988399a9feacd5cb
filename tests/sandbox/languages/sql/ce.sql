SELEC 'hello';
