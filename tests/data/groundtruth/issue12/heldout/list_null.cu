#include <stdio.h>
#include <stdlib.h>
struct Node { int val; struct Node *next; };
int sum(struct Node *head, int n)
{
    int s = 0;
    for (int i = 0; i < n; i++) { s += head->val; head = head->next; }
    return s;
}
int main()
{
    struct Node *head = NULL;
    for (int i = 0; i < 3; i++) {
        struct Node *n = (struct Node *)malloc(sizeof(struct Node));
        n->val = i + 1; n->next = head; head = n;
    }
    printf("sum of 3: %d\n", sum(head, 3));
    fflush(stdout);
    printf("sum of 4: %d\n", sum(head, 4));
    return 0;
}
