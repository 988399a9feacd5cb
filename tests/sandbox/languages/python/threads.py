import threading
box = []
t = threading.Thread(target=lambda: box.append(42))
t.start()
t.join()
print(box[0])
