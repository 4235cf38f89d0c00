// A doubly linked list with sentinel-free head/tail pointers.
export class LinkedList {
  // @step list-ctor {"effort": 2, "todo": "constructor(): empty list (head, tail, size)"}
  constructor() {
    this.head = null;
    this.tail = null;
    this.size = 0;
  }
  // @end

  // @step list-push-front {"effort": 3, "after": ["list-ctor"], "todo": "pushFront(node): insert at the front"}
  pushFront(node) {
    node.prev = null;
    node.next = this.head;
    if (this.head) this.head.prev = node;
    this.head = node;
    if (!this.tail) this.tail = node;
    this.size++;
    return node;
  }
  // @end

  // @step list-remove {"effort": 4, "after": ["list-ctor"], "todo": "remove(node): unlink a node"}
  remove(node) {
    if (node.prev) node.prev.next = node.next;
    else this.head = node.next;
    if (node.next) node.next.prev = node.prev;
    else this.tail = node.prev;
    node.prev = null;
    node.next = null;
    this.size--;
    return node;
  }
  // @end

  // @step list-pop-back {"effort": 2, "after": ["list-remove"], "todo": "popBack(): remove and return the last node or null"}
  popBack() {
    return this.tail ? this.remove(this.tail) : null;
  }
  // @end

  // @step list-iter {"effort": 2, "after": ["list-ctor"], "todo": "[Symbol.iterator](): nodes front to back"}
  *[Symbol.iterator]() {
    for (let node = this.head; node; node = node.next) yield node;
  }
  // @end
}
