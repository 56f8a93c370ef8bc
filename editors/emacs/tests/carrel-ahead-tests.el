;;; carrel-ahead-tests.el --- ERT tests of opening a folder at once  -*- lexical-binding: t; -*-

;;; Commentary:

;; Loaded by tests/run.sh after carrel-tests.el, whose helpers these use.
;; Once idle, the binder fetches the listings of the closed folders it
;; shows, up to `carrel-fetch-ahead' rows each; opening one of them then
;; asks the server nothing, and draws its first rows before the rest.

;;; Code:

(require 'carrel-tests)

(defun carrel-test--folder-of (name count)
  "Make the folder NAME at the library's top holding COUNT files; return its URI.
It is filled elsewhere and moved in, so the tree never holds it
with fewer.  Wait until the server lists them all and the tree has
drawn."
  (let ((staging (make-temp-file "carrel-folder" t)))
    (dotimes (i count)
      (write-region "" nil (expand-file-name (format "Note %02d.md" i) staging)))
    (rename-file staging (carrel-test--path name)))
  (let ((uri (carrel--path-to-uri (carrel-test--path name))))
    (carrel-test--wait (lambda ()
                         ;; Not found until the server's watcher has seen it.
                         (ignore-error user-error
                           (= count (length (plist-get (aref (carrel--request carrel-test--conn 'carrel/tree
                                                                              (list :uri uri :depth 1))
                                                             0)
                                                       :children)))))
                       "the server to list the files")
    (carrel-test--wait (lambda () (equal (plist-get (carrel--node uri) :fileCount) count))
                       "the folder's count in the tree")
    (carrel-test--settled)
    uri))

(defun carrel-test--notes-shown ()
  "Return how many rows of notes the tree buffer shows."
  (save-excursion
    (goto-char (point-min))
    (cl-loop while (re-search-forward "Note [0-9][0-9]\\.md" nil t) count t)))

(ert-deftest carrel-test-closed-folders-fetched-ahead ()
  "Once idle, the closed folders shown are fetched, those of at most
`carrel-fetch-ahead' rows; opening one asks nothing, a bigger one is
asked for when opened."
  (let ((carrel-fetch-ahead 20))
    (carrel-test--with-library
      (carrel-test--project "My Poems" "poetry")
      (carrel-test--file "My Poems" "Draft" "Spring")
      (let ((small (carrel-test--folder-of "Box" 12))
            (big (carrel-test--folder-of "Crate" 21))
            (all (concat (carrel--path-to-uri (carrel-test--path "My Poems")) "/.carrel/all"))
            (draft (carrel--path-to-uri (carrel-test--path "My Poems" "Draft"))))
        (carrel-test--wait (lambda () (carrel--loaded-p small)) "the small folder fetched ahead")
        (carrel-test--wait (lambda () (carrel--loaded-p draft)) "Draft fetched ahead")
        (carrel-test--settled)
        (accept-process-output nil 0.2)
        (carrel-test--settled)
        (should-not (carrel--loaded-p big))
        (should-not (carrel--loaded-p all))
        (should-not (gethash small carrel--expanded))
        (should (zerop (carrel-test--notes-shown)))
        (carrel-test--goto-row "Box")
        (let ((sent (carrel-test--recording (carrel-toggle) (carrel-test--settled))))
          (should (null (carrel-test--tree-requests sent))))
        (should (= 12 (carrel-test--notes-shown)))
        (carrel-test--goto-row "Crate")
        (let ((sent (carrel-test--recording (carrel-toggle) (carrel-test--settled))))
          (should (equal (carrel-test--tree-requests sent) (list (list :uri big :depth 1)))))
        (should (= 33 (carrel-test--notes-shown)))))))

(ert-deftest carrel-test-folder-opened-draws-a-slice-first ()
  "Opening a folder draws its first rows, and the rest in the next slices."
  (carrel-test--with-library
    (carrel-test--folder-of "Box" 60)
    (carrel-test--goto-row "Box")
    ;; No time at all: the slice draws the few lines it may.
    (let ((carrel--render-slice 0))
      (carrel-toggle)
      (should (< 0 (carrel-test--notes-shown) 60))
      (should carrel--queue)
      (should (equal (plist-get (carrel--node-at-point) :title) "Box"))
      (carrel-test--wait (lambda () (= (carrel-test--notes-shown) 60)) "every row drawn")
      (carrel-test--settled))
    (should (equal (carrel-test--rows)
                   (progn (carrel--render t) (carrel-test--rows))))))

;; Not a timing: how many rows' identities are hashed, which is most of
;; what opening a folder of a thousand held costs.
(ert-deftest carrel-test-folder-opened-looks-up-each-row-once ()
  "Opening a folder whose rows are held hashes each of its rows once:
the rows shown are not walked for listings missing, nor weighed in
tables, when the rows opened are only added."
  (let ((carrel-fetch-ahead 100))
    (carrel-test--with-library
      (let ((box (carrel-test--folder-of "Box" 60))
            (hashed 0))
        (carrel-test--wait (lambda () (carrel--loaded-p box)) "the folder fetched ahead")
        (carrel-test--settled)
        (carrel-test--goto-row "Box")
        (cl-flet ((count (&rest _) (cl-incf hashed)))
          (advice-add 'carrel--id-hash :before #'count)
          (unwind-protect
              (let ((carrel--render-slice 10))
                (carrel-toggle))
            (advice-remove 'carrel--id-hash #'count)))
        (should (= 60 (carrel-test--notes-shown)))
        (should (< hashed 80))))))

;; Not a timing: whether a change in an open folder walks the rows shown
;; to look for closed folders to fetch, which costs a thousand lookups.
(ert-deftest carrel-test-changes-look-for-nothing-to-fetch-ahead ()
  "Files made in an open folder are drawn without looking again for
closed folders to fetch: that is done when a listing comes in or a
folder opens."
  (let ((carrel-fetch-ahead 100))
    (carrel-test--with-library
      (let ((box (carrel-test--folder-of "Box" 20))
            (looks 0))
        (carrel-test--wait (lambda () (carrel--loaded-p box)) "the folder fetched ahead")
        (carrel-test--goto-row "Box")
        (carrel-toggle)
        (carrel-test--settled)
        (accept-process-output nil 0.2)
        (cl-flet ((count (&rest _) (cl-incf looks)))
          (advice-add 'carrel--fetch-ahead-specs :before #'count)
          (unwind-protect
              (dolist (name '("Note 30.md" "Note 31.md" "Note 32.md"))
                (write-region "" nil (carrel-test--path "Box" name))
                (carrel-test--wait (lambda () (carrel-test--row name)) "the new file shown")
                (carrel-test--settled)
                (accept-process-output nil 0.2))
            (advice-remove 'carrel--fetch-ahead-specs #'count)))
        (should (= 23 (carrel-test--notes-shown)))
        (should (zerop looks))))))

;; Not a timing: how many rows one piece of the tree's queue keeps, which
;; is how long Emacs is held up by a listing of a thousand fetched ahead.
(ert-deftest carrel-test-listing-fetched-ahead-kept-in-slices ()
  "A long listing that comes in is kept a slice of rows at a time, with
the tree's queue, and so Emacs, going on in between."
  (let ((carrel-fetch-ahead 100)
        (carrel--store-slice 25)
        (most 0))
    (carrel-test--with-library
      (let ((stored 0))
        (cl-flet ((count (&rest _) (cl-incf stored))
                  (piece (run buffer)
                    (setq stored 0)
                    (prog1 (funcall run buffer)
                      (setq most (max most stored)))))
          (advice-add 'carrel--store :before #'count)
          (advice-add 'carrel--run-queue :around #'piece)
          (unwind-protect
              (let ((box (carrel-test--folder-of "Box" 60)))
                (carrel-test--wait (lambda () (carrel--loaded-p box)) "the folder fetched ahead")
                (carrel-test--settled)
                (should (= 60 (length (gethash box carrel--kids))))
                (should (= 60 (seq-count (lambda (id) (equal (gethash id carrel--parents) box))
                                         (hash-table-keys carrel--parents)))))
            (advice-remove 'carrel--store #'count)
            (advice-remove 'carrel--run-queue #'piece)))
        (should (< 0 most 30))
        (carrel-test--goto-row "Box")
        (carrel-toggle)
        (carrel-test--settled)
        (should (= 60 (carrel-test--notes-shown)))))))

(ert-deftest carrel-test-closed-folder-kept-up-to-date ()
  "A folder closed keeps its rows, which follow changes on disk: opened
again, it shows a file made meanwhile without asking the server."
  (let ((carrel-fetch-ahead 100))
    (carrel-test--with-library
      (let ((box (carrel-test--folder-of "Box" 3)))
        (carrel-test--wait (lambda () (carrel--loaded-p box)) "the folder fetched ahead")
        (carrel-test--settled)
        (carrel-test--goto-row "Box")
        (carrel-toggle)
        (carrel-test--settled)
        (should (= 3 (carrel-test--notes-shown)))
        (carrel-test--goto-row "Box")
        (carrel-toggle)
        (carrel-test--settled)
        (should (zerop (carrel-test--notes-shown)))
        (let ((sent (carrel-test--recording
                      (write-region "" nil (carrel-test--path "Box" "Note 10.md"))
                      (delete-file (carrel-test--path "Box" "Note 00.md"))
                      (carrel-test--wait (lambda ()
                                           (and (carrel--node (carrel--path-to-uri (carrel-test--path "Box" "Note 10.md")))
                                                (not (carrel--node (carrel--path-to-uri
                                                                    (carrel-test--path "Box" "Note 00.md"))))))
                                         "the closed folder's rows to follow")
                      (carrel-test--settled)
                      (carrel-test--goto-row "Box")
                      (carrel-toggle)
                      (carrel-test--settled))))
          (should (null (carrel-test--tree-requests sent))))
        (should (equal (seq-filter (lambda (row) (string-prefix-p "Note" row)) (carrel-test--rows))
                       '("Note 01.md" "Note 02.md" "Note 10.md")))))))

(provide 'carrel-ahead-tests)
;;; carrel-ahead-tests.el ends here
