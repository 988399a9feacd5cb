test('wrong', () => { expect(2 + 2).toBe(5); });
